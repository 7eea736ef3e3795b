import { FakeJsonApi, type FakeAnswer, type SeenRequest } from '../../testing/fake-json-api';

/** One weekly collection period of a fake record: its last day and the p75s as CrUX reports them. */
export interface FakeCruxPeriod {
  lastDate: string;
  lcpMs: number | null;
  /** CLS as CrUX History sends it: a decimal string ("0.05"), or null without data. */
  cls: string | null;
  inpMs: number | null;
}

/**
 * CrUX History API on 127.0.0.1: `POST /v1/records:queryHistoryRecord` answers the documented
 * record (collectionPeriods with firstDate/lastDate, metrics.*.histogramTimeseries and
 * percentilesTimeseries.p75s), or Google's 404 NOT_FOUND for an origin or URL it has no data for.
 */
export class FakeCruxHistory {
  /** Keyed by `origin:<origin>` or `url:<url>`. */
  readonly records = new Map<string, FakeCruxPeriod[]>();

  private constructor(
    readonly api: FakeJsonApi,
    private readonly apiKey: string | undefined,
  ) {}

  static async start(apiKey?: string): Promise<FakeCruxHistory> {
    let fake: FakeCruxHistory | undefined;
    const api = await FakeJsonApi.start((request) => fake!.answer(request));
    fake = new FakeCruxHistory(api, apiKey);
    return fake;
  }

  /** The base URL as CRUX_BASE_URL takes it. */
  get baseUrl(): string {
    return `${this.api.origin}/v1`;
  }

  close(): Promise<void> {
    return this.api.close();
  }

  private answer(request: SeenRequest): FakeAnswer {
    if (request.method !== 'POST' || request.path !== '/v1/records:queryHistoryRecord') return googleError(404, 'NOT_FOUND', 'Not Found');
    if (this.apiKey !== undefined && request.query.get('key') !== this.apiKey) {
      return googleError(400, 'INVALID_ARGUMENT', 'API key not valid. Please pass a valid API key.');
    }
    const body = (request.body ?? {}) as { origin?: string; url?: string };
    const key = body.origin !== undefined ? `origin:${body.origin}` : body.url !== undefined ? `url:${body.url}` : undefined;
    if (!key) return googleError(400, 'INVALID_ARGUMENT', 'Request must specify either origin or url.');
    const periods = this.records.get(key);
    if (!periods) return googleError(404, 'NOT_FOUND', 'chrome ux report data not found');
    return { kind: 'json', body: historyRecord(body, periods) };
  }
}

function googleError(code: number, status: string, message: string): FakeAnswer {
  return { kind: 'json', status: code, body: { error: { code, message, status } } };
}

function historyRecord(key: { origin?: string; url?: string }, periods: FakeCruxPeriod[]): unknown {
  const date = (day: string) => {
    const [year, month, dayOfMonth] = day.split('-').map(Number);
    return { year, month, day: dayOfMonth };
  };
  const firstDateOf = (lastDate: string) => new Date(Date.parse(`${lastDate}T00:00:00Z`) - 27 * 86_400_000).toISOString().slice(0, 10);
  const histogram = (bounds: [number, number]) => [
    { start: 0, end: bounds[0], densities: periods.map(() => 0.7) },
    { start: bounds[0], end: bounds[1], densities: periods.map(() => 0.2) },
    { start: bounds[1], densities: periods.map(() => 0.1) },
  ];
  return {
    record: {
      key,
      metrics: {
        largest_contentful_paint: {
          histogramTimeseries: histogram([2500, 4000]),
          percentilesTimeseries: { p75s: periods.map((p) => p.lcpMs) },
        },
        cumulative_layout_shift: {
          histogramTimeseries: histogram([0.1, 0.25]).map((bin) => ({
            ...bin,
            start: String(bin.start),
            ...(bin.end !== undefined ? { end: String(bin.end) } : {}),
          })),
          percentilesTimeseries: { p75s: periods.map((p) => p.cls) },
        },
        interaction_to_next_paint: {
          histogramTimeseries: histogram([200, 500]),
          percentilesTimeseries: { p75s: periods.map((p) => p.inpMs) },
        },
      },
      collectionPeriods: periods.map((p) => ({ firstDate: date(firstDateOf(p.lastDate)), lastDate: date(p.lastDate) })),
    },
  };
}
