import { FAILURES } from '../testing/fake-json-api';
import { UpstreamError } from '../shared/upstream-error';
import { NoTraffic, SimilarwebClient, lastTwelveMonths } from './similarweb-client';
import { FakeSimilarweb, type FakeSimilarwebMonth } from './testing/fake-similarweb';

const KEY = 'test-similarweb-key-0123';
const NOW = new Date('2025-06-15T10:00:00Z');

/** 14 months of a site, so that the client's 12-month window is visible. */
const months: FakeSimilarwebMonth[] = Array.from({ length: 14 }, (_, i) => {
  const d = new Date(Date.UTC(2024, 3 + i, 1));
  return { month: d.toISOString().slice(0, 7), visits: 1_000 + i, bounceRate: (40 + i) / 100, avgVisitDuration: 100 + i + 0.25 };
});

describe('SimilarwebClient against a fake Similarweb API', () => {
  let similarweb: FakeSimilarweb;
  let client: SimilarwebClient;

  beforeAll(async () => {
    similarweb = await FakeSimilarweb.start(KEY);
    client = new SimilarwebClient({ baseUrl: similarweb.baseUrl, apiKey: KEY, timeoutMs: 1_000 });
  });
  afterAll(() => similarweb.close());
  beforeEach(() => {
    similarweb.sites.clear();
    similarweb.api.failWith(undefined);
    similarweb.api.requests.length = 0;
    similarweb.endpointsWithoutData.clear();
  });

  it('the window is the 12 complete months before now', () => {
    expect(lastTwelveMonths(NOW)).toEqual({ start: '2024-06', end: '2025-05' });
    expect(lastTwelveMonths(new Date('2025-01-01T00:00:00Z'))).toEqual({ start: '2024-01', end: '2024-12' });
  });

  it('calls the three endpoints, monthly, worldwide, subdomains included, with the key', async () => {
    similarweb.sites.set('example.com', months);
    await client.monthlyTraffic('example.com', NOW);
    expect(similarweb.api.requests.map((r) => r.path).sort()).toEqual([
      '/v1/website/example.com/total-traffic-and-engagement/average-visit-duration',
      '/v1/website/example.com/total-traffic-and-engagement/bounce-rate',
      '/v1/website/example.com/total-traffic-and-engagement/visits',
    ]);
    for (const { query } of similarweb.api.requests) {
      expect(Object.fromEntries(query)).toEqual({
        api_key: KEY,
        start_date: '2024-06',
        end_date: '2025-05',
        country: 'world',
        granularity: 'monthly',
        main_domain_only: 'false',
        format: 'json',
      });
    }
  });

  it('joins the three series by month, oldest first, at most 12', async () => {
    similarweb.sites.set('example.com', months);
    const traffic = await client.monthlyTraffic('example.com', NOW);
    expect(traffic?.domain).toBe('example.com');
    expect(traffic?.months).toHaveLength(12);
    expect(traffic?.months[0]).toEqual({ month: '2024-06', visits: 1_002, bounceRate: 0.42, avgVisitDuration: 102.25 });
    expect(traffic?.months[11]).toEqual({ month: '2025-05', visits: 1_013, bounceRate: 0.53, avgVisitDuration: 113.25 });
  });

  it('answers null for a site Similarweb has no data for', async () => {
    await expect(client.monthlyTraffic('unknown.example', NOW)).resolves.toBeNull();
  });

  it('fails on a 404 that is not "Data not found" (a wrong base URL), which must not be cached as no data', async () => {
    similarweb.sites.set('example.com', months);
    const misrouted = new SimilarwebClient({ baseUrl: `${similarweb.baseUrl}/api`, apiKey: KEY, timeoutMs: 1_000 });
    const error = (await misrouted.monthlyTraffic('example.com', NOW).catch((e: unknown) => e)) as UpstreamError;
    expect(error).toMatchObject({ provider: 'similarweb', kind: 'http', status: 404 });
    expect(error.message).toMatch(/Endpoint does not exist/);
  });

  it('keeps visits with null engagement when Similarweb has no data for one engagement series', async () => {
    similarweb.sites.set('example.com', months);
    similarweb.endpointsWithoutData.add('bounce-rate');
    const traffic = await client.monthlyTraffic('example.com', NOW);
    expect(traffic?.months[11]).toEqual({ month: '2025-05', visits: 1_013, bounceRate: null, avgVisitDuration: 113.25 });
  });

  it('answers null without calling anyone when not configured', async () => {
    const none = new NoTraffic();
    expect(none.configured).toBe(false);
    await expect(none.monthlyTraffic()).resolves.toBeNull();
  });

  it('fails on a rejected key, naming the status but not the key', async () => {
    const wrong = new SimilarwebClient({ baseUrl: similarweb.baseUrl, apiKey: 'wrong-key-abcdef', timeoutMs: 1_000 });
    const error = (await wrong.monthlyTraffic('example.com', NOW).catch((e: unknown) => e)) as UpstreamError;
    expect(error).toMatchObject({ provider: 'similarweb', kind: 'http', status: 401 });
    expect(error.message).toMatch(/not authorized/);
    expect(error.message).not.toMatch(/wrong-key/);
  });

  it.each([
    ['a 503', FAILURES.serverError(503), 'http'],
    ['a truncated body', FAILURES.malformed(), 'malformed'],
    ['a success without its series', { kind: 'json' as const, body: { meta: { status: 'Success' } } }, 'malformed'],
    [
      'a bounce rate in percent',
      {
        kind: 'json' as const,
        body: {
          meta: { status: 'Success' },
          visits: [{ date: '2025-05-01', visits: 1 }],
          bounce_rate: [{ date: '2025-05-01', bounce_rate: 45 }],
          average_visit_duration: [],
        },
      },
      'malformed',
    ],
    ['a reset connection', FAILURES.reset(), 'unreachable'],
    ['an answer later than the timeout', FAILURES.slow(3_000, { kind: 'json' as const, body: {} }), 'timeout'],
  ])('turns %s into an UpstreamError', async (_what, failure, kind) => {
    similarweb.sites.set('example.com', months);
    similarweb.api.failWith(failure);
    const error = await client.monthlyTraffic('example.com', NOW).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UpstreamError);
    expect(error).toMatchObject({ provider: 'similarweb', kind });
  });
});
