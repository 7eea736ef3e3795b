/** The port for a page's or an origin's Chrome UX Report history (CrUX History API). */

/** An origin (`https://example.com`, no path) or a full page URL. */
export type CruxTarget = { origin: string } | { url: string };

/** A metric's 75th percentile in one collection period; null when CrUX had too little data then. */
export interface CruxPercentile {
  p75: number | null;
}

export interface CruxHistoryPoint {
  /** The collection period's last day, `YYYY-MM-DD`. */
  date: string;
  /** ms */
  lcp: CruxPercentile;
  /** unitless (0.1, not 10) */
  cls: CruxPercentile;
  /** ms */
  inp: CruxPercentile;
}

export interface CruxHistory {
  /** Oldest first. */
  points: CruxHistoryPoint[];
}

export interface CruxHistoryProvider {
  /** False when neither CRUX_API_KEY nor CRUX_BASE_URL is set: every call answers null. */
  readonly configured: boolean;
  /**
   * The weekly series of LCP, CLS and INP p75 for the target (all form factors together). Null
   * when CrUX has no data for it (its 404) or the provider is not configured; throws
   * `UpstreamError` when the provider failed, or was cut off by `signal` (the service stopping).
   */
  history(target: CruxTarget, signal?: AbortSignal): Promise<CruxHistory | null>;
}
