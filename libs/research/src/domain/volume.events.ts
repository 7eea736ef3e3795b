import { eventTypes } from '@rank/domain/domain-event';
import { STREAM_CATEGORIES } from '@rank/domain/stream-categories';

export const COMPETITION_LEVELS = ['LOW', 'MEDIUM', 'HIGH'] as const;
export type Competition = (typeof COMPETITION_LEVELS)[number];

/** Where keyword figures came from (`s` in the compact record). */
export const VOLUME_SOURCES = ['dataforseo', 'google-ads'] as const;
export type VolumeSource = (typeof VOLUME_SOURCES)[number];

export interface MonthlySearches {
  year: number;
  /** 1–12. */
  month: number;
  value: number;
}

/**
 * One keyword's market figures as a provider gave them. A keyword the provider knows nothing about
 * is kept too (null figures, empty history), so that it counts as fetched and is not asked again
 * until the monthly refresh.
 */
export interface KeywordMetrics {
  /** The keyword text as the service stores it (normalised). */
  keyword: string;
  avgMonthlySearches: number | null;
  competition: Competition | null;
  /** 0–100. */
  competitionIndex: number | null;
  /** Low and high top-of-page bids, in USD. */
  cpcLow: number | null;
  cpcHigh: number | null;
  /** Oldest first. */
  history: MonthlySearches[];
}

/** A market: one country and language, the key volumes are kept by. */
export interface Market {
  /** ISO 3166-1 alpha-2, uppercase. */
  geoCode: string;
  /** ISO 639-1, lowercase. */
  langCode: string;
}

/**
 * Volumes are market data shared by every account: one stream per market, `volumes-<geo>-<lang>`,
 * appended by the background fetcher (and by live lookups), never by a user's command.
 */
export type VolumeEvent =
  | {
      type: 'KeywordVolumesFetched';
      data: Market & { source: VolumeSource; currency: 'USD'; fetchedAt: string; keywords: KeywordMetrics[] };
    }
  /** A batch that failed for good after its retries; the monthly sweep will ask again. */
  | {
      type: 'KeywordVolumesFetchFailed';
      data: Market & { source: VolumeSource; keywords: string[]; reason: string; attempts: number; failedAt: string };
    };

export const VOLUME_EVENT_TYPES = eventTypes<VolumeEvent>()(['KeywordVolumesFetched', 'KeywordVolumesFetchFailed']);

export const volumesStreamName = (market: Market) => STREAM_CATEGORIES.volumes(market.geoCode, market.langCode);

/** A map key for a keyword in a market. */
export const marketKeywordKey = (market: Market, keyword: string) => `${market.geoCode}|${market.langCode}|${keyword}`;
export const marketKey = (market: Market) => `${market.geoCode}|${market.langCode}`;
