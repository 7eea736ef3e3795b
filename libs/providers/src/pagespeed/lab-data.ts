import { UpstreamError } from '../shared/upstream-error';
import { asNumber, asObject } from '../shared/json-shape';

/** What a Lighthouse result (ours, or the `lighthouseResult` of PageSpeed Insights) gives. */
export interface LabData {
  performanceScore: number | null;
  accessibilityScore: number | null;
  bestPracticesScore: number | null;
  seoScore: number | null;
  largestContentfulPaint: number | null;
  firstContentfulPaint: number | null;
  totalBlockingTime: number | null;
  cumulativeLayoutShift: number | null;
}

/** The categories asked for, by their Lighthouse ids. */
export const LIGHTHOUSE_CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;

/**
 * Reads the scores and lab metrics of a Lighthouse result (LHR). Scores are 0–1 there and 0–100
 * here; timings stay in ms (rounded to whole ms), CLS stays unitless. A run Lighthouse itself
 * reports as failed (`runtimeError`: the page did not load, no paint) is an error, not a record of
 * zeros; a result without its performance category is malformed.
 */
export function labDataFromLighthouseResult(provider: string, lhr: unknown): LabData {
  const result = asObject(lhr);
  if (!result) throw new UpstreamError(provider, 'malformed', 'the answer has no Lighthouse result');
  const runtimeError = asObject(result.runtimeError);
  if (runtimeError && typeof runtimeError.code === 'string' && runtimeError.code !== 'NO_ERROR') {
    const message = typeof runtimeError.message === 'string' ? `: ${runtimeError.message.slice(0, 200)}` : '';
    throw new UpstreamError(provider, 'page', `Lighthouse could not measure the page (${runtimeError.code}${message})`);
  }
  const categories = asObject(result.categories);
  const audits = asObject(result.audits);
  if (!categories || !audits || !asObject(categories.performance)) {
    throw new UpstreamError(provider, 'malformed', 'the Lighthouse result lacks its categories or audits');
  }
  const score = (id: (typeof LIGHTHOUSE_CATEGORIES)[number]) => categoryScore(provider, categories[id], id);
  const metric = (id: string, digits: number) => auditValue(audits[id], digits);
  return {
    performanceScore: score('performance'),
    accessibilityScore: score('accessibility'),
    bestPracticesScore: score('best-practices'),
    seoScore: score('seo'),
    largestContentfulPaint: metric('largest-contentful-paint', 0),
    firstContentfulPaint: metric('first-contentful-paint', 0),
    totalBlockingTime: metric('total-blocking-time', 0),
    cumulativeLayoutShift: metric('cumulative-layout-shift', 3),
  };
}

/** A category's score 0–1 as 0–100; null when Lighthouse could not score it (it sends null then). */
function categoryScore(provider: string, category: unknown, id: string): number | null {
  const score = asObject(category)?.score;
  if (score === null || score === undefined) return null;
  if (typeof score !== 'number' || !(score >= 0 && score <= 1)) {
    throw new UpstreamError(provider, 'malformed', `the ${id} score is not a number from 0 to 1`);
  }
  return Math.round(score * 100);
}

function auditValue(audit: unknown, digits: number): number | null {
  const value = asNumber(asObject(audit)?.numericValue);
  if (value === undefined || value < 0) return null;
  const scale = 10 ** digits;
  return Math.round(value * scale) / scale;
}
