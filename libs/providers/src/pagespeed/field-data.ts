import type { CruxFieldData } from './page-speed-provider';
import { asNumber, asObject } from '../shared/json-shape';

/** The "good" bounds of the core web vitals at p75 (web.dev): LCP and INP in ms, CLS unitless. */
export const GOOD_CORE_WEB_VITALS = { LCP: 2500, INP: 200, CLS: 0.1 } as const;

/**
 * Field data from the `loadingExperience` of a PageSpeed Insights answer, or null when CrUX has
 * none for the page (PSI then sends the object without `metrics`). PSI reports the CLS percentile
 * multiplied by 100 (10 means 0.10), so it is divided back here; LCP and INP are ms already.
 */
export function fieldDataFromLoadingExperience(loadingExperience: unknown): CruxFieldData | null {
  const metrics = asObject(asObject(loadingExperience)?.metrics);
  if (!metrics) return null;
  const percentile = (key: string) => {
    const value = asNumber(asObject(metrics[key])?.percentile);
    return value === undefined || value < 0 ? null : value;
  };
  const lcp = percentile('LARGEST_CONTENTFUL_PAINT_MS');
  const inp = percentile('INTERACTION_TO_NEXT_PAINT');
  const clsTimes100 = percentile('CUMULATIVE_LAYOUT_SHIFT_SCORE');
  if (lcp === null && inp === null && clsTimes100 === null) return null;
  return {
    LCP: { p75: lcp },
    CLS: { p75: clsTimes100 === null ? null : clsTimes100 / 100 },
    INP: { p75: inp },
  };
}

/**
 * 100 × the share of the measured core web vitals that are good at p75, rounded; null when none is
 * measured. A vital CrUX has no figure for is left out rather than counted as poor.
 */
export function cruxScore(field: CruxFieldData | null): number | null {
  if (!field) return null;
  const measured = [
    [field.LCP.p75, GOOD_CORE_WEB_VITALS.LCP],
    [field.INP.p75, GOOD_CORE_WEB_VITALS.INP],
    [field.CLS.p75, GOOD_CORE_WEB_VITALS.CLS],
  ].filter((pair): pair is [number, number] => pair[0] !== null);
  if (measured.length === 0) return null;
  const good = measured.filter(([p75, bound]) => p75 <= bound).length;
  return Math.round((100 * good) / measured.length);
}
