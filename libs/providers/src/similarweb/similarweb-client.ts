import { fetchJson } from '../shared/fetch-json';
import { asArray, asNumber, asObject } from '../shared/json-shape';
import { UpstreamError } from '../shared/upstream-error';
import type { DomainTraffic, MonthlyTraffic, TrafficProvider } from './traffic-provider';

export const SIMILARWEB_PROVIDER = 'similarweb';
export const DEFAULT_SIMILARWEB_BASE_URL = 'https://api.similarweb.com';

/** The three endpoints, and the array and value field each answers with. */
const SERIES = {
  visits: { path: 'visits', field: 'visits' },
  bounceRate: { path: 'bounce-rate', field: 'bounce_rate' },
  avgVisitDuration: { path: 'average-visit-duration', field: 'average_visit_duration' },
} as const;

export interface SimilarwebOptions {
  /** `SIMILARWEB_BASE_URL`, without a trailing slash. */
  baseUrl: string;
  /** `SIMILARWEB_API_KEY` */
  apiKey?: string;
  /** Per call; 20 s by default. */
  timeoutMs?: number;
}

/**
 * Similarweb REST v1 total traffic and engagement: visits, bounce rate and average visit duration
 * of the last 12 complete months, worldwide, subdomains included. A failure of any series fails the
 * whole: a record with visits but no engagement would be cached as if complete. A series Similarweb
 * answers "Data not found" for beside visits is its answer, kept as null figures.
 */
export class SimilarwebClient implements TrafficProvider {
  readonly configured = true;

  constructor(private readonly options: SimilarwebOptions) {}

  async monthlyTraffic(domain: string, now: Date, signal?: AbortSignal): Promise<DomainTraffic | null> {
    const { start, end } = lastTwelveMonths(now);
    const [visits, bounceRate, avgVisitDuration] = await Promise.all(
      (Object.keys(SERIES) as (keyof typeof SERIES)[]).map((series) => this.series(domain, series, start, end, signal)),
    );
    if (visits === null || visits.size === 0) return null;
    // Similarweb's figures are estimates with long fractions: whole visits, a 4-digit rate, centiseconds.
    const months: MonthlyTraffic[] = [...visits.keys()].sort().map((month) => ({
      month,
      visits: rounded(visits.get(month), 0),
      bounceRate: rounded(bounceRate?.get(month), 4),
      avgVisitDuration: rounded(avgVisitDuration?.get(month), 2),
    }));
    return { domain, months: months.slice(-12) };
  }

  /** One series by month (`YYYY-MM`), or null when Similarweb has no data for the domain. */
  private async series(
    domain: string,
    series: keyof typeof SERIES,
    start: string,
    end: string,
    signal: AbortSignal | undefined,
  ): Promise<Map<string, number | null> | null> {
    const { path, field } = SERIES[series];
    const url = new URL(`${this.options.baseUrl}/v1/website/${encodeURIComponent(domain)}/total-traffic-and-engagement/${path}`);
    url.searchParams.set('api_key', this.options.apiKey ?? '');
    url.searchParams.set('start_date', start);
    url.searchParams.set('end_date', end);
    url.searchParams.set('country', 'world');
    url.searchParams.set('granularity', 'monthly');
    url.searchParams.set('main_domain_only', 'false');
    url.searchParams.set('format', 'json');
    const { status, body } = await fetchJson({
      provider: SIMILARWEB_PROVIDER,
      method: 'GET',
      url,
      timeoutMs: this.options.timeoutMs ?? 20_000,
      signal,
      secrets: [this.options.apiKey],
    });
    const answer = asObject(body);
    const meta = asObject(answer?.meta);
    const errorMessage = typeof meta?.error_message === 'string' ? meta.error_message.slice(0, 200) : undefined;
    // Similarweb answers an unknown or too small site with "Data not found" (with a 200 or a 404). Any other
    // 404 ("Endpoint does not exist" from a wrong SIMILARWEB_BASE_URL) is a failure: cached as "no data",
    // it would hide the domain's traffic for 30 days.
    if (/data not found/i.test(errorMessage ?? '')) return null;
    if (status !== 200 || meta?.status === 'Error') {
      throw new UpstreamError(SIMILARWEB_PROVIDER, 'http', `${path} answered ${status}${errorMessage ? `: ${errorMessage}` : ''}`, status);
    }
    const points = asArray(answer?.[field]);
    if (!points) throw new UpstreamError(SIMILARWEB_PROVIDER, 'malformed', `${path} answered without its ${field} list`);
    const byMonth = new Map<string, number | null>();
    for (const point of points) {
      const entry = asObject(point);
      const date = typeof entry?.date === 'string' ? entry.date : '';
      if (!/^\d{4}-\d{2}/.test(date)) throw new UpstreamError(SIMILARWEB_PROVIDER, 'malformed', `${path} has an entry without a date`);
      const value = asNumber(entry?.[field]);
      byMonth.set(date.slice(0, 7), value === undefined || value < 0 ? null : value);
    }
    if (series === 'bounceRate') {
      for (const [month, rate] of byMonth)
        if (rate !== null && rate > 1) throw new UpstreamError(SIMILARWEB_PROVIDER, 'malformed', `bounce rate of ${month} is above 1`);
    }
    return byMonth;
  }
}

function rounded(value: number | null | undefined, digits: number): number | null {
  if (value === null || value === undefined) return null;
  const scale = 10 ** digits;
  return Math.round(value * scale) / scale;
}

/** A configured-nowhere traffic provider: no domain has data. */
export class NoTraffic implements TrafficProvider {
  readonly configured = false;
  monthlyTraffic(): Promise<DomainTraffic | null> {
    return Promise.resolve(null);
  }
}

/** The 12 complete months before `now`'s month, as Similarweb's `YYYY-MM` start and end. */
export function lastTwelveMonths(now: Date): { start: string; end: string } {
  const month = (offset: number) => {
    const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + offset, 1));
    return `${d.getUTCFullYear()}-${String(d.getUTCMonth() + 1).padStart(2, '0')}`;
  };
  return { start: month(-12), end: month(-1) };
}
