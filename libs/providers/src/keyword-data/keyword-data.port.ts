import type { KeywordDataError } from './keyword-data-error';

/** Which provider answered; stored with the figures and shown as `s` / `source`. */
export type KeywordDataSource = 'dataforseo' | 'google-ads';

export type Competition = 'LOW' | 'MEDIUM' | 'HIGH';

/** A market: the country and language the figures are for. */
export interface KeywordMarket {
  /** ISO 3166-1 alpha-2, e.g. `US`. */
  geoCode: string;
  /** ISO 639-1, e.g. `en`. */
  langCode: string;
}

export interface MonthlyVolume {
  year: number;
  /** 1–12. */
  month: number;
  value: number;
}

/**
 * A provider's months as the port gives them: oldest first, one figure a month. A month a provider
 * lists twice keeps the figure it listed first: a history is one value a month, and before, the
 * month went out twice (serp-check) or one of its figures won by chance of sorting (keyword-volumes).
 */
export function monthlyHistory(listed: readonly MonthlyVolume[]): MonthlyVolume[] {
  const byMonth = new Map<number, MonthlyVolume>();
  for (const month of listed) {
    const key = month.year * 12 + month.month;
    if (!byMonth.has(key)) byMonth.set(key, month);
  }
  return [...byMonth.values()].sort((a, b) => a.year - b.year || a.month - b.month);
}

/** One keyword's figures in a market. A provider that has no figure for a field gives null. */
export interface KeywordFigures {
  /** The keyword text as the provider echoed it (for volumes: the text that was asked). */
  keyword: string;
  avgMonthlySearches: number | null;
  competition: Competition | null;
  /** 0–100. */
  competitionIndex: number | null;
  /** Low and high top-of-page bids, in USD. */
  cpcLow: number | null;
  cpcHigh: number | null;
  /** Monthly searches, oldest first (usually the last 12 months). */
  history: MonthlyVolume[];
}

/** The most keywords one upstream task takes; `searchVolumes` splits larger sets itself. */
export const KEYWORD_DATA_BATCH_SIZE = 1_000;

/** Both providers take at most 20 seed keywords for ideas; extra seeds are dropped, first ones kept. */
export const MAX_IDEA_SEEDS = 20;

export interface IdeaOptions {
  /** At most this many ideas (default 100). */
  limit?: number;
  /** The caller stopped waiting: the upstream call in flight is cut off and no retry starts. */
  signal?: AbortSignal;
}

/**
 * Keyword figures from a paid provider (DataForSEO or a Google Ads account). Every method throws a
 * {@link KeywordDataError} on failure, whose `failure` says `upstream_error` (the provider answered
 * with an error or a malformed body) or `unavailable` (unreachable, timed out).
 */
export interface KeywordDataProvider {
  readonly source: KeywordDataSource;
  /**
   * Figures of the given keyword texts, in batches of {@link KEYWORD_DATA_BATCH_SIZE} per upstream
   * task. Keywords the provider knows nothing about may be missing from the answer. `signal` cuts
   * the call short (retries and later batches included) once the caller no longer waits for it.
   */
  searchVolumes(market: KeywordMarket, keywords: readonly string[], signal?: AbortSignal): Promise<KeywordFigures[]>;
  /** Related keywords for up to {@link MAX_IDEA_SEEDS} seeds, with their figures. */
  ideasForKeywords(market: KeywordMarket, seeds: readonly string[], options?: IdeaOptions): Promise<KeywordFigures[]>;
  /** Keywords relevant to a site, by its domain (`example.com`), with their figures. */
  ideasForSite(market: KeywordMarket, domain: string, options?: IdeaOptions): Promise<KeywordFigures[]>;
}

export type { KeywordDataError };
