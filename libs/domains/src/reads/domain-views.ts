import type { CruxRow, PageSpeedRow, TrafficRow } from './domain-data.reader';

/**
 * The spec's shapes of the cached domain data (traffic-check, webtraffic, competitors-filtered,
 * pagespeed, pages-pagespeed, crux-history), also read by the agent export.
 */

const iso = (ms: number) => new Date(ms).toISOString();

export interface MonthlyVisitsView {
  domain: string;
  /** `YYYY-MM` */
  month: string;
  visits: number | null;
}

export interface TrafficView {
  stats: { domain: string; totalVisits: number; fetchedAt: string };
  /** At most 12 months, oldest first. */
  monthlyVisits: MonthlyVisitsView[];
}

/** One competitor of competitors-filtered's `data`: its months carry no domain (the key names it). */
export interface CompetitorTrafficView {
  stats: TrafficView['stats'];
  monthlyVisits: Omit<MonthlyVisitsView, 'domain'>[];
  pageSpeed: { cruxScore: number | null };
}

export interface EngagedTrafficView {
  stats: {
    domain: string;
    totalVisits: number;
    engagementMetrics: { bounceRate: number | null; avgVisitDuration: number | null };
    fetchedAt: string;
  };
  monthlyVisits: MonthlyVisitsView[];
}

/** Null when the provider had no traffic for the domain. */
export function trafficView(row: TrafficRow): TrafficView | null {
  if (!row.hasData) return null;
  return {
    stats: { domain: row.domain, totalVisits: row.totalVisits, fetchedAt: iso(row.fetchedAtMs) },
    monthlyVisits: row.months.map((month, i) => ({ domain: row.domain, month, visits: row.visits[i] ?? null })),
  };
}

/** traffic-check's `data`: the traffic with its engagement (bounce rate 0–1, visit duration in seconds). */
export function engagedTrafficView(row: TrafficRow): EngagedTrafficView | null {
  const traffic = trafficView(row);
  if (!traffic) return null;
  const round = (value: number | null, digits: number) => (value === null ? null : Number(value.toFixed(digits)));
  return {
    stats: {
      ...traffic.stats,
      engagementMetrics: { bounceRate: round(row.bounceRate, 4), avgVisitDuration: round(row.avgVisitDuration, 1) },
      fetchedAt: traffic.stats.fetchedAt,
    },
    monthlyVisits: traffic.monthlyVisits,
  };
}

export interface PageSpeedView {
  domain: string;
  performanceScore: number | null;
  accessibilityScore: number | null;
  bestPracticesScore: number | null;
  seoScore: number | null;
  cruxScore: number | null;
  largestContentfulPaint: number | null;
  firstContentfulPaint: number | null;
  cumulativeLayoutShift: number | null;
  totalBlockingTime: number | null;
  cruxFieldData: { LCP: { p75: number | null }; CLS: { p75: number | null }; INP: { p75: number | null } } | null;
  /** `psi` or `lighthouse` */
  source: string;
  fetchedAt: string;
}

export function pageSpeedView(row: PageSpeedRow): PageSpeedView {
  return {
    domain: row.domain,
    performanceScore: row.performanceScore,
    accessibilityScore: row.accessibilityScore,
    bestPracticesScore: row.bestPracticesScore,
    seoScore: row.seoScore,
    cruxScore: row.cruxScore,
    largestContentfulPaint: row.largestContentfulPaint,
    firstContentfulPaint: row.firstContentfulPaint,
    cumulativeLayoutShift: row.cumulativeLayoutShift,
    totalBlockingTime: row.totalBlockingTime,
    cruxFieldData: row.hasFieldData
      ? { LCP: { p75: row.fieldLcpP75 }, CLS: { p75: row.fieldClsP75 }, INP: { p75: row.fieldInpP75 } }
      : null,
    source: row.source,
    fetchedAt: iso(row.measuredAtMs),
  };
}

/** traffic-check's `pagespeed`. */
export const pageSpeedSummaryView = (row: PageSpeedRow) => ({
  domain: row.domain,
  performanceScore: row.performanceScore,
  cruxScore: row.cruxScore,
  largestContentfulPaint: row.largestContentfulPaint,
  cumulativeLayoutShift: row.cumulativeLayoutShift,
  fetchedAt: iso(row.measuredAtMs),
});

export const pathOf = (url: string) => {
  try {
    return new URL(url).pathname;
  } catch {
    return url;
  }
};

/** One page of pages-pagespeed: its lab figures and where they came from (`psi`, `lighthouse`, or `domain` for the snapshot baseline). */
export const pagePageSpeedView = (row: PageSpeedRow, source: string = row.source) => ({
  url: row.url,
  path: pathOf(row.url),
  performanceScore: row.performanceScore,
  accessibilityScore: row.accessibilityScore,
  bestPracticesScore: row.bestPracticesScore,
  seoScore: row.seoScore,
  largestContentfulPaint: row.largestContentfulPaint,
  firstContentfulPaint: row.firstContentfulPaint,
  cumulativeLayoutShift: row.cumulativeLayoutShift,
  totalBlockingTime: row.totalBlockingTime,
  source,
  measuredAt: iso(row.measuredAtMs),
});

/** crux-history: the origin's series and each page's LCP series, oldest first. */
export function cruxHistoryView(domain: string, rows: readonly CruxRow[]) {
  const origin = rows.find((r) => r.target === 'origin');
  return {
    data: (origin?.dates ?? []).map((date, i) => ({
      domain,
      date,
      lcp: { p75: origin!.lcp[i] ?? null },
      cls: { p75: origin!.cls[i] ?? null },
    })),
    pages: rows
      .filter((r) => r.target === 'url' && r.dates.length > 0)
      .map((r) => ({ url: r.url, path: pathOf(r.url), data: r.dates.map((date, i) => ({ date, lcp: { p75: r.lcp[i] ?? null } })) })),
  };
}
