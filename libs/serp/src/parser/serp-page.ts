/** What the SERP parser reads from one Google result page. */

export interface OrganicResult {
  /** 1-based rank among the organic results of this page, in page order. */
  position: number;
  /** The target URL, with Google's `/url?q=` redirect unwrapped and tracking parameters dropped. */
  url: string;
  title: string;
  /** Normalised host of `url` (see `normaliseDomain`). */
  domain: string;
  snippet: string;
}

export interface AiOverviewSource {
  /** 1-based order of first citation in the overview. */
  position: number;
  /** Cited URL with any `#:~:text=` fragment removed; distinct within one page. */
  url: string;
  title: string;
  domain: string;
}

/** Where the page was read from, when the caller knows it. */
export interface PageSource {
  /** The URL the browser ended on, after redirects. */
  url: string;
}

/** Why a page is not a result page we can read. */
export type BlockReason = 'captcha' | 'unusual-traffic' | 'javascript-challenge';

export type SerpPage =
  /** A result page; `organic` may hold fewer results than asked for. */
  | { kind: 'results'; organic: OrganicResult[]; aiOverview: AiOverviewSource[]; hasNextPage: boolean }
  /** Google answered, and it found nothing for the query: a valid "not ranking" answer. */
  | { kind: 'no-results' }
  /** A block page: the check failed; it must never be read as "not ranking". */
  | { kind: 'blocked'; reason: BlockReason }
  /**
   * Google's EU cookie-consent interstitial instead of results: the check failed. Not a block (the
   * address is not refused; Google wants a cookie choice first). `detail` says what showed it.
   */
  | { kind: 'consent'; detail: string }
  /** Not a Google result page we recognise (or a markup change we do not know): the check failed. */
  | { kind: 'unrecognised'; detail: string };
