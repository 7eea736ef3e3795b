import { normaliseKeyword } from '@rank/domain/keyword-text';
import type { ProjectContentEvent } from '@rank/projects/domain/project-content.events';
import { Market, marketKey, marketKeywordKey } from './domain/volume.events';
import type { MarketKeyword } from './volumes.reader';

/** Keywords per provider call: DataForSEO's search_volume task takes up to 1,000. */
export const VOLUME_BATCH_SIZE = 1_000;
/** Volumes are monthly figures: fetched data is fresh for a month, then refreshed. */
export const VOLUMES_FRESH_FOR_MS = 30 * 24 * 3600_000;
/** Waits before the 2nd, 3rd, … attempt of a failed batch; after the last one the batch is recorded as failed. */
export const VOLUME_RETRY_DELAYS_MS = [5_000, 30_000, 120_000, 600_000] as const;

/**
 * Background provider calls a minute at most: DataForSEO allows 12 a minute per account on its Google
 * Ads live endpoints, and half of that is left to the interactive calls (ideas, research, serp-check).
 * A 3,500-keyword project (4 calls) is still fetched at once.
 */
export const VOLUME_CALLS_PER_MINUTE = 6;
/** Background provider calls in flight at once, so that one that hangs holds back no other market. */
export const VOLUME_FETCHES_AT_ONCE = 3;

/** One provider call: up to VOLUME_BATCH_SIZE keyword texts of one market. */
export interface VolumeFetch extends Market {
  keywords: string[];
}

/** What the fetcher knows when it decides: when each keyword's volumes were last fetched (ISO), by marketKeywordKey. */
export interface KnownVolumes {
  fetchedAt: ReadonlyMap<string, string>;
  now: Date;
}

export const isFresh = (fetchedAt: string | undefined, now: Date) =>
  fetchedAt !== undefined && now.getTime() - Date.parse(fetchedAt) < VOLUMES_FRESH_FOR_MS;

/** The keywords a KeywordsAdded event brings into view; other events bring none. */
export function keywordsWanted(event: ProjectContentEvent): MarketKeyword[] {
  if (event.type !== 'KeywordsAdded') return [];
  return event.data.keywords.map((k) => ({ geoCode: k.geoCode, langCode: k.langCode, keyword: k.value }));
}

/**
 * The provider calls that bring the wanted keywords up to date: the texts without fresh volumes,
 * each once, grouped per market (in the order the markets first appear) and cut into batches of
 * VOLUME_BATCH_SIZE. Volumes are market data: a text tracked by several projects is fetched once.
 */
export function volumeFetchesFor(wanted: readonly MarketKeyword[], known: KnownVolumes): VolumeFetch[] {
  const byMarket = new Map<string, { market: Market; texts: Set<string> }>();
  for (const k of wanted) {
    const keyword = normaliseKeyword(k.keyword);
    if (!keyword || isFresh(known.fetchedAt.get(marketKeywordKey(k, keyword)), known.now)) continue;
    const entry = byMarket.get(marketKey(k)) ?? { market: { geoCode: k.geoCode, langCode: k.langCode }, texts: new Set<string>() };
    entry.texts.add(keyword);
    byMarket.set(marketKey(k), entry);
  }
  const fetches: VolumeFetch[] = [];
  for (const { market, texts } of byMarket.values()) {
    const all = [...texts];
    for (let i = 0; i < all.length; i += VOLUME_BATCH_SIZE) fetches.push({ ...market, keywords: all.slice(i, i + VOLUME_BATCH_SIZE) });
  }
  return fetches;
}

/** After a batch's `attempt`-th failure (counted from 1): wait this long and try again, or give up (null). */
export function retryAfterFailure(attempt: number, delaysMs: readonly number[] = VOLUME_RETRY_DELAYS_MS): number | null {
  return delaysMs[attempt - 1] ?? null;
}

/**
 * How long to wait before the next background call (0: now), given the start times (ms) of the
 * calls made so far, so that no 60-second window holds more than `perMinute` of them.
 */
export function waitBeforeCall(callTimes: readonly number[], now: number, perMinute: number = VOLUME_CALLS_PER_MINUTE): number {
  if (perMinute <= 0) return 0;
  const recent = callTimes.filter((t) => t > now - 60_000);
  if (recent.length < perMinute) return 0;
  return recent[recent.length - perMinute]! + 60_000 - now;
}
