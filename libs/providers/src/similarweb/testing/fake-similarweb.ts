import { FakeJsonApi, type FakeAnswer, type SeenRequest } from '../../testing/fake-json-api';

/** One month of a fake site, in Similarweb's units (bounce rate 0–1, duration in seconds). */
export interface FakeSimilarwebMonth {
  month: string;
  visits: number;
  bounceRate: number;
  avgVisitDuration: number;
}

const ENDPOINT = /^\/v1\/website\/([^/]+)\/total-traffic-and-engagement\/(visits|bounce-rate|average-visit-duration)$/;
const FIELDS = { visits: 'visits', 'bounce-rate': 'bounce_rate', 'average-visit-duration': 'average_visit_duration' } as const;

/**
 * Similarweb REST v1 on 127.0.0.1: the three total-traffic-and-engagement endpoints answer
 * `{meta: {request, status: "Success", last_updated}, <field>: [{date, <field>}]}` for the months
 * between start_date and end_date; a site it does not know gets `meta.status: "Error"` with
 * "Data not found", a wrong key 401 "User is not authorized".
 */
export class FakeSimilarweb {
  readonly sites = new Map<string, FakeSimilarwebMonth[]>();
  /** Endpoints (`bounce-rate`, ...) that answer a 404 "Data not found" even for a known site. */
  readonly endpointsWithoutData = new Set<string>();

  private constructor(
    readonly api: FakeJsonApi,
    private readonly apiKey: string,
  ) {}

  static async start(apiKey: string): Promise<FakeSimilarweb> {
    let fake: FakeSimilarweb | undefined;
    const api = await FakeJsonApi.start((request) => fake!.answer(request));
    fake = new FakeSimilarweb(api, apiKey);
    return fake;
  }

  /** The base URL as SIMILARWEB_BASE_URL takes it. */
  get baseUrl(): string {
    return this.api.origin;
  }

  close(): Promise<void> {
    return this.api.close();
  }

  private answer(request: SeenRequest): FakeAnswer {
    const match = ENDPOINT.exec(request.path);
    if (request.method !== 'GET' || !match)
      return { kind: 'json', status: 404, body: { meta: { status: 'Error', error_code: 404, error_message: 'Endpoint does not exist' } } };
    if (request.query.get('api_key') !== this.apiKey) {
      return { kind: 'json', status: 401, body: { meta: { status: 'Error', error_code: 401, error_message: 'User is not authorized' } } };
    }
    const domain = decodeURIComponent(match[1]);
    const endpoint = match[2] as keyof typeof FIELDS;
    const start = request.query.get('start_date') ?? '';
    const end = request.query.get('end_date') ?? '';
    const months = this.sites.get(domain);
    const requestEcho = {
      domain,
      country: request.query.get('country'),
      granularity: 'Monthly',
      main_domain_only: request.query.get('main_domain_only') === 'true',
      format: request.query.get('format'),
      start_date: `${start}-01`,
      end_date: `${end}-01`,
      mtd: false,
      show_verified: false,
    };
    if (this.endpointsWithoutData.has(endpoint))
      return {
        kind: 'json',
        status: 404,
        body: { meta: { request: requestEcho, status: 'Error', error_code: 401, error_message: 'Data not found' } },
      };
    if (!months)
      return {
        kind: 'json',
        status: 200,
        body: { meta: { request: requestEcho, status: 'Error', error_code: 401, error_message: 'Data not found' } },
      };
    const field = FIELDS[endpoint];
    const value = (m: FakeSimilarwebMonth) =>
      endpoint === 'visits' ? m.visits : endpoint === 'bounce-rate' ? m.bounceRate : m.avgVisitDuration;
    const series = months.filter((m) => m.month >= start && m.month <= end).map((m) => ({ date: `${m.month}-01`, [field]: value(m) }));
    return { kind: 'json', body: { meta: { request: requestEcho, status: 'Success', last_updated: `${end}-28` }, [field]: series } };
  }
}
