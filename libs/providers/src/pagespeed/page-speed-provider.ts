import type { LabData } from './lab-data';
/**
 * The port for measuring one page's speed: lab data (a Lighthouse run, ours or Google's) and, from
 * PageSpeed Insights only, the page's field data from the Chrome UX Report.
 * Units are the spec's: scores 0–100, times in ms, CLS unitless.
 */

/** `psi`: the PageSpeed Insights API; `lighthouse`: a local Lighthouse run in our Chromium. */
export type PageSpeedSource = 'psi' | 'lighthouse';

/** A field metric's 75th percentile; `p75` is null when CrUX has no figure for that metric. */
export interface FieldMetric {
  p75: number | null;
}

/** Field data at the 75th percentile: LCP and INP in ms, CLS unitless (0.1, not 10). */
export interface CruxFieldData {
  LCP: FieldMetric;
  CLS: FieldMetric;
  INP: FieldMetric;
}

/**
 * One page's measurement: the lab data (scores 0–100, null when Lighthouse could not score a category;
 * times in ms and CLS unitless, null when the audit has no value) and, from PSI only, the field data.
 */
export interface PageSpeedMeasurement extends LabData {
  /** The URL that was asked for. */
  url: string;
  source: PageSpeedSource;
  /** Null without field data (always null for a local Lighthouse run). */
  cruxFieldData: CruxFieldData | null;
  /** 100 × the share of the measured core web vitals that are good, rounded; null without field data. */
  cruxScore: number | null;
}

export interface PageSpeedProvider {
  readonly source: PageSpeedSource;
  /**
   * Measures `url` (an absolute http(s) URL). Throws `UpstreamError` when no measurement could be
   * made (provider down, timeout, malformed answer, page that did not load); never returns a
   * half-filled record for a failure. Once `signal` aborts (the service stopping), the measurement
   * is cut off, or never started when it was still waiting for its turn.
   */
  measure(url: string, signal?: AbortSignal): Promise<PageSpeedMeasurement>;
}
