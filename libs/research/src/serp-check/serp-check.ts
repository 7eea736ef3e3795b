import { Inject, Injectable, Logger } from '@nestjs/common';
import type { AppConfig } from '@rank/platform/config/app-config';
import { APP_CONFIG } from '@rank/platform/tokens';
import type { Competition } from '../domain/volume.events';
import { withTimeout } from '../ideas/with-timeout';
import { KeywordVolumes, VolumeLookup } from '../keyword-volumes';
import type { LiveSerpResult } from './live-check.events';
import { LiveChecks, LiveCheckTarget } from './live-checks';
import { averageMonthlySearches } from '../domain/twelve-months';

/** serp-check's `volume`, as the clarifications define it: all null and `volume: []` when there is no data for the keyword and country. */
export interface SerpCheckVolume {
  value: number | null;
  cpc: number | null;
  competition: Competition | null;
  metrics: {
    avgMonthlySearches: number | null;
    competition: Competition | null;
    competitionIndex: number | null;
    cpcLow: number | null;
    cpcHigh: number | null;
  } | null;
  volume: { year: number; month: number; value: number }[];
}

/**
 * The checked keyword's first page and volume, or `failed` when neither could be had: the page
 * could not be loaded and the volume lookup failed too (a volume the provider does not know is no
 * failure). A page that failed alone gives `serp: []`.
 */
export type SerpCheckOutcome = { kind: 'checked'; serp: LiveSerpResult[]; volume: SerpCheckVolume } | { kind: 'failed'; reason: string };

export const NO_VOLUME: SerpCheckVolume = { value: null, cpc: null, competition: null, metrics: null, volume: [] };

export function serpCheckVolume(lookup: VolumeLookup): SerpCheckVolume {
  if (lookup.kind !== 'found') return NO_VOLUME;
  const v = lookup.volume;
  // The average every other read shows: the provider's, else the stored months'.
  const average = averageMonthlySearches(v);
  return {
    value: average,
    cpc: v.cpcHigh,
    competition: v.competition,
    metrics: {
      avgMonthlySearches: average,
      competition: v.competition,
      competitionIndex: v.competitionIndex,
      cpcLow: v.cpcLow,
      cpcHigh: v.cpcHigh,
    },
    volume: v.history.map(({ year, month, value }) => ({ year, month, value })),
  };
}

/** The page (through a scraper, see LiveChecks) and the volume (stored, else the provider) are fetched at once. */
@Injectable()
export class SerpCheck {
  private readonly logger = new Logger('SerpCheck');

  constructor(
    private readonly liveChecks: LiveChecks,
    private readonly volumes: KeywordVolumes,
    @Inject(APP_CONFIG) private readonly config: Pick<AppConfig, 'serpCheckTimeoutMs'>,
  ) {}

  async check(target: LiveCheckTarget): Promise<SerpCheckOutcome> {
    const market = { geoCode: target.geoCode, langCode: target.langCode };
    const [page, volume] = await Promise.all([
      this.liveChecks.check(target),
      // Waited for as long as the page is, no longer: a slow provider (retries within a minute) would
      // otherwise hold the answer past what the caller was promised. A lookup still under way records
      // its figures when they come.
      withTimeout(() => this.volumes.lookup(target.keyword, market), this.config.serpCheckTimeoutMs, 'keyword volumes').catch(
        (error: unknown): VolumeLookup => ({ kind: 'failed', reason: error instanceof Error ? error.message : String(error) }),
      ),
    ]);
    if (page.type === 'LiveCheckAnswered') return { kind: 'checked', serp: page.data.serp, volume: serpCheckVolume(volume) };
    const why = page.type === 'timeout' ? `no scraper answered within ${page.waitedMs} ms` : page.data.reason;
    this.logger.warn(`serp-check page for ${target.geoCode}/${target.langCode} failed: ${why}`);
    if (volume.kind === 'failed')
      return { kind: 'failed', reason: `the results page could not be loaded (${why}) and the volume lookup failed (${volume.reason})` };
    return { kind: 'checked', serp: [], volume: serpCheckVolume(volume) };
  }
}
