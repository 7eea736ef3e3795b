import { eventTypes } from '@rank/domain/domain-event';
import { STREAM_CATEGORIES } from '@rank/domain/stream-categories';

/**
 * What the service learnt about one external domain, in its own stream (`domain-<domain>`): traffic,
 * page speed (the domain's home page and single ranking pages), CrUX history (the origin and single
 * pages), and the fetches that failed. A failure is recorded as a failure, never as data, so it is
 * never served from the cache. The shapes are this context's own (not the providers' ports), because
 * stored events outlive any client.
 */

/** One month of traffic: `month` `YYYY-MM`; visits; bounce rate 0–1; average visit duration in seconds. */
export interface TrafficMonth {
  month: string;
  visits: number | null;
  bounceRate: number | null;
  avgVisitDuration: number | null;
}

/** `domain`: the domain's home page (its snapshot); `page`: one ranking URL of a tracked project. */
export type PageSpeedLevel = 'domain' | 'page';

export interface PageSpeedFigures {
  source: 'psi' | 'lighthouse';
  performanceScore: number | null;
  accessibilityScore: number | null;
  bestPracticesScore: number | null;
  seoScore: number | null;
  largestContentfulPaint: number | null;
  firstContentfulPaint: number | null;
  totalBlockingTime: number | null;
  cumulativeLayoutShift: number | null;
  /** p75 field data: LCP and INP in ms, CLS unitless; null without field data. */
  cruxFieldData: { LCP: { p75: number | null }; CLS: { p75: number | null }; INP: { p75: number | null } } | null;
  cruxScore: number | null;
}

/** One CrUX collection period: its last day and the p75 of each metric (ms; CLS unitless). */
export interface CruxPoint {
  date: string;
  lcp: number | null;
  cls: number | null;
  inp: number | null;
}

/** What a fetch was for: traffic of the domain, page speed of a URL, CrUX history of an origin or URL. */
export type DomainDataKind = 'traffic' | 'pagespeed' | 'crux';

/**
 * Who asked: a request waits for the answer and is not retried; background work (a project's, a
 * ranking page's) is retried with backoff, and `retry` is such a retry.
 */
export type FetchOrigin = 'request' | 'background' | 'retry';

export type DomainDataEvent =
  /** `months` is empty when the provider has no data for the domain (a real answer, cached like data). */
  | { type: 'DomainTrafficFetched'; data: { domain: string; fetchedAt: string; months: TrafficMonth[] } }
  | {
      type: 'DomainPageSpeedMeasured';
      data: { domain: string; url: string; level: PageSpeedLevel; measuredAt: string; figures: PageSpeedFigures };
    }
  /** `target` `origin` (url is the origin, `https://example.com`) or `url`; `points` empty when CrUX has no data (its 404). */
  | {
      type: 'DomainCruxHistoryFetched';
      data: { domain: string; target: 'origin' | 'url'; url: string; fetchedAt: string; points: CruxPoint[] };
    }
  /**
   * A fetch that gave nothing: `target` is the domain (traffic) or the URL asked for; `attempt` counts
   * the failures of that fetch since its last success. `round`, for background work, is which try of
   * its round this was (1 for the fetch a trigger asked for, 2 for its first retry, …): the retries
   * back off by it. Failures recorded before rounds existed have none; their `attempt` stands in.
   */
  | {
      type: 'DomainDataFetchFailed';
      data: {
        domain: string;
        kind: DomainDataKind;
        target: string;
        level?: PageSpeedLevel;
        reason: string;
        failedAt: string;
        attempt: number;
        origin: FetchOrigin;
        round?: number;
      };
    };

export const DOMAIN_DATA_EVENT_TYPES = eventTypes<DomainDataEvent>()([
  'DomainTrafficFetched',
  'DomainPageSpeedMeasured',
  'DomainCruxHistoryFetched',
  'DomainDataFetchFailed',
]);

export const domainStreamName = STREAM_CATEGORIES.domain;
