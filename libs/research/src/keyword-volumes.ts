import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import { normaliseKeyword } from '@rank/domain/keyword-text';
import { CLOCK, Clock } from '@rank/platform/tokens';
import { Market, marketKeywordKey, MonthlySearches } from './domain/volume.events';
import { KEYWORD_DATA_PROVIDER, KeywordDataProvider } from './keyword-data-providers';
import { metricsOfAsked, VolumeRecorder } from './volume-recorder';
import { hasData, MarketKeyword, StoredVolume, VolumesReader } from './volumes.reader';
import { isFresh } from './volumes.process';

/**
 * A keyword's volume as a caller gets it:
 * - `found`: figures, stored or just fetched;
 * - `none`: no data for that keyword and market (not stored and no provider, or the provider knows nothing of it);
 * - `failed`: nothing stored and the live provider call failed (`reason` for the log, never for the caller).
 */
export type VolumeLookup = { kind: 'found'; volume: StoredVolume } | { kind: 'none' } | { kind: 'failed'; reason: string };

/**
 * Keyword volumes for the rest of the service (serp-check, keyword suggestions, keyword records):
 * stored figures from ClickHouse, with a live provider call on a miss whose result is recorded as
 * an event like any background fetch.
 */
@Injectable()
export class KeywordVolumes {
  private readonly logger = new Logger('KeywordVolumes');

  constructor(
    private readonly reader: VolumesReader,
    private readonly recorder: VolumeRecorder,
    @Inject(CLOCK) private readonly clock: Clock,
    @Optional() @Inject(KEYWORD_DATA_PROVIDER) private readonly provider: KeywordDataProvider | null = null,
  ) {}

  /** Stored figures only, keyed by marketKeywordKey; keywords without any are left out. */
  async stored(keywords: readonly MarketKeyword[]): Promise<StoredVolume[]> {
    if (keywords.length === 0) return [];
    return this.reader.latest(keywords.map((k) => ({ ...k, keyword: normaliseKeyword(k.keyword) })));
  }

  /**
   * The stored figures of a project's keywords (those that have data), by keyword id: the separate
   * lookup the keyword records merge in (avgMonthlySearches, sortBy=volume, the CSV's Volume).
   */
  async ofKeywords(
    keywords: readonly { keywordId: string; value: string; geoCode: string; langCode: string }[],
  ): Promise<Map<string, StoredVolume>> {
    const stored = await this.stored(keywords.map((k) => ({ geoCode: k.geoCode, langCode: k.langCode, keyword: k.value })));
    const byKey = new Map(stored.filter(hasData).map((v) => [marketKeywordKey(v, v.keyword), v]));
    const byId = new Map<string, StoredVolume>();
    for (const k of keywords) {
      const volume = byKey.get(marketKeywordKey(k, normaliseKeyword(k.value)));
      if (volume) byId.set(k.keywordId, volume);
    }
    return byId;
  }

  /** Every month ever stored for the keyword, oldest first. */
  async history(keyword: MarketKeyword): Promise<MonthlySearches[]> {
    return this.reader.history({ ...keyword, keyword: normaliseKeyword(keyword.keyword) });
  }

  /**
   * The keyword's figures: stored while fresh (a month), else asked live from the configured provider
   * (and recorded). Stored figures gone stale are what a failed live call falls back to: volumes of
   * keywords nobody tracks (a serp-check's, a suggested phrase's) have no other refresh.
   */
  async lookup(text: string, market: Market): Promise<VolumeLookup> {
    const keyword = normaliseKeyword(text);
    const [stored] = await this.reader.latest([{ ...market, keyword }]);
    const answerOf = (volume: StoredVolume): VolumeLookup => (hasData(volume) ? { kind: 'found', volume } : { kind: 'none' });
    if (stored && (isFresh(stored.fetchedAt, this.clock.now()) || !this.provider)) return answerOf(stored);
    if (!this.provider) return { kind: 'none' };
    try {
      const fetchedAt = this.clock.now();
      const [metrics] = metricsOfAsked([keyword], await this.provider.searchVolumes(market, [keyword]));
      await this.recorder.fetched(market, this.provider.source, fetchedAt, [metrics!]);
      const volume: StoredVolume = {
        ...market,
        ...metrics!,
        source: this.provider.source,
        currency: 'USD',
        fetchedAt: fetchedAt.toISOString(),
      };
      return hasData(volume) ? { kind: 'found', volume } : { kind: 'none' };
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      this.logger.warn(`live volume lookup failed for ${market.geoCode}/${market.langCode}: ${reason}`);
      return stored ? answerOf(stored) : { kind: 'failed', reason };
    }
  }
}
