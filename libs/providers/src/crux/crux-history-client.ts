import { fetchJson, upstreamMessage } from '../shared/fetch-json';
import { asArray, asNumber, asObject } from '../shared/json-shape';
import { UpstreamError } from '../shared/upstream-error';
import type { CruxHistory, CruxHistoryPoint, CruxHistoryProvider, CruxTarget } from './crux-history-provider';

export const CRUX_PROVIDER = 'crux-history';
export const DEFAULT_CRUX_BASE_URL = 'https://chromeuxreport.googleapis.com/v1';

/** The CrUX metric names asked for, and where each lands in a point. */
const METRICS = { largest_contentful_paint: 'lcp', cumulative_layout_shift: 'cls', interaction_to_next_paint: 'inp' } as const;

export interface CruxHistoryOptions {
  /** `CRUX_BASE_URL`, without a trailing slash. */
  baseUrl: string;
  /** `CRUX_API_KEY` */
  apiKey?: string;
  /** 15 s by default. */
  timeoutMs?: number;
}

/**
 * CrUX History API: `POST records:queryHistoryRecord` with `{origin}` or `{url}`. Its 404 means
 * CrUX has no data for the target (too few visits), which is an answer (null), not a failure.
 */
export class CruxHistoryClient implements CruxHistoryProvider {
  readonly configured = true;

  constructor(private readonly options: CruxHistoryOptions) {}

  async history(target: CruxTarget, signal?: AbortSignal): Promise<CruxHistory | null> {
    const url = new URL(`${this.options.baseUrl}/records:queryHistoryRecord`);
    if (this.options.apiKey) url.searchParams.set('key', this.options.apiKey);
    const body = { ...target, metrics: Object.keys(METRICS) };
    const { status, body: answer } = await fetchJson({
      provider: CRUX_PROVIDER,
      method: 'POST',
      url,
      body,
      timeoutMs: this.options.timeoutMs ?? 15_000,
      signal,
      secrets: [this.options.apiKey],
    });
    if (status === 404) return null;
    if (status !== 200) {
      const message = upstreamMessage(answer);
      throw new UpstreamError(CRUX_PROVIDER, 'http', `queryHistoryRecord answered ${status}${message ? `: ${message}` : ''}`, status);
    }
    return historyFromRecord(answer);
  }
}

/** A configured-nowhere CrUX: every target has no data. */
export class NoCruxHistory implements CruxHistoryProvider {
  readonly configured = false;
  history(): Promise<CruxHistory | null> {
    return Promise.resolve(null);
  }
}

/**
 * Reads `record.collectionPeriods` and each metric's `percentilesTimeseries.p75s` (one entry per
 * period, oldest first). CLS p75s arrive as strings ("0.05"); a period with too little data has
 * null (or "NaN") there. Periods where no metric has a figure are left out.
 */
export function historyFromRecord(answer: unknown): CruxHistory {
  const record = asObject(asObject(answer)?.record);
  const periods = asArray(record?.collectionPeriods);
  const metrics = asObject(record?.metrics);
  if (!record || !periods || !metrics)
    throw new UpstreamError(CRUX_PROVIDER, 'malformed', 'the answer has no record with collectionPeriods and metrics');
  const dates = periods.map((period) => lastDateOf(period));
  const series = Object.fromEntries(
    Object.entries(METRICS).map(([name, field]) => {
      const metric = asObject(metrics[name]);
      if (!metric) return [field, dates.map(() => null)];
      const p75s = asArray(asObject(metric.percentilesTimeseries)?.p75s);
      if (!p75s || p75s.length !== dates.length) {
        throw new UpstreamError(CRUX_PROVIDER, 'malformed', `${name} has no p75 for each of the ${dates.length} collection periods`);
      }
      return [field, p75s.map(p75Of)];
    }),
  ) as Record<'lcp' | 'cls' | 'inp', (number | null)[]>;
  const points: CruxHistoryPoint[] = dates
    .map((date, i) => ({ date, lcp: { p75: series.lcp[i] }, cls: { p75: series.cls[i] }, inp: { p75: series.inp[i] } }))
    .filter((point) => point.lcp.p75 !== null || point.cls.p75 !== null || point.inp.p75 !== null)
    .sort((a, b) => a.date.localeCompare(b.date));
  return { points };
}

function p75Of(value: unknown): number | null {
  if (value === null || value === undefined) return null;
  const n = asNumber(value);
  if (n === undefined) {
    if (value === 'NaN') return null;
    throw new UpstreamError(CRUX_PROVIDER, 'malformed', 'a p75 is neither a number nor null');
  }
  return n < 0 ? null : n;
}

/** `{year, month, day}` → `YYYY-MM-DD`. */
function lastDateOf(period: unknown): string {
  const last = asObject(asObject(period)?.lastDate);
  const year = asNumber(last?.year);
  const month = asNumber(last?.month);
  const day = asNumber(last?.day);
  if (year === undefined || month === undefined || day === undefined || !(month >= 1 && month <= 12 && day >= 1 && day <= 31)) {
    throw new UpstreamError(CRUX_PROVIDER, 'malformed', 'a collection period has no valid lastDate');
  }
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}
