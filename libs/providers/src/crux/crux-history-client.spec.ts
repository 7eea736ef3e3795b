import { FAILURES } from '../testing/fake-json-api';
import { UpstreamError } from '../shared/upstream-error';
import { CruxHistoryClient, NoCruxHistory } from './crux-history-client';
import { FakeCruxHistory } from './testing/fake-crux-history';

const KEY = 'test-crux-key-0123456789';
const ORIGIN = 'https://www.example.com';
const PAGE = 'https://www.example.com/pricing';

describe('CruxHistoryClient against a fake CrUX History API', () => {
  let crux: FakeCruxHistory;
  let client: CruxHistoryClient;

  beforeAll(async () => {
    crux = await FakeCruxHistory.start(KEY);
    client = new CruxHistoryClient({ baseUrl: crux.baseUrl, apiKey: KEY, timeoutMs: 1_000 });
  });
  afterAll(() => crux.close());
  beforeEach(() => {
    crux.records.clear();
    crux.api.failWith(undefined);
    crux.api.requests.length = 0;
  });

  it('asks queryHistoryRecord by origin with the key and the three vitals', async () => {
    crux.records.set(`origin:${ORIGIN}`, [{ lastDate: '2025-05-03', lcpMs: 2100, cls: '0.05', inpMs: 180 }]);
    await client.history({ origin: ORIGIN });
    const [request] = crux.api.requests;
    expect(request.method).toBe('POST');
    expect(request.path).toBe('/v1/records:queryHistoryRecord');
    expect(request.query.get('key')).toBe(KEY);
    expect(request.body).toEqual({
      origin: ORIGIN,
      metrics: ['largest_contentful_paint', 'cumulative_layout_shift', 'interaction_to_next_paint'],
    });
  });

  it('maps each collection period to its last day, oldest first, with the CLS string read as a number', async () => {
    crux.records.set(`origin:${ORIGIN}`, [
      { lastDate: '2025-04-26', lcpMs: 2600, cls: '0.12', inpMs: 210 },
      { lastDate: '2025-05-03', lcpMs: 2400, cls: '0.05', inpMs: 180 },
    ]);
    expect(await client.history({ origin: ORIGIN })).toEqual({
      points: [
        { date: '2025-04-26', lcp: { p75: 2600 }, cls: { p75: 0.12 }, inp: { p75: 210 } },
        { date: '2025-05-03', lcp: { p75: 2400 }, cls: { p75: 0.05 }, inp: { p75: 180 } },
      ],
    });
  });

  it('asks by URL, keeps a period with a missing metric as null and leaves out a period without any data', async () => {
    crux.records.set(`url:${PAGE}`, [
      { lastDate: '2025-04-19', lcpMs: null, cls: null, inpMs: null },
      { lastDate: '2025-04-26', lcpMs: 3000, cls: null, inpMs: null },
    ]);
    expect(await client.history({ url: PAGE })).toEqual({
      points: [{ date: '2025-04-26', lcp: { p75: 3000 }, cls: { p75: null }, inp: { p75: null } }],
    });
    expect(crux.api.requests[0].body).toMatchObject({ url: PAGE });
  });

  it('answers null for the 404 CrUX gives a target without data', async () => {
    await expect(client.history({ origin: 'https://tiny.example' })).resolves.toBeNull();
  });

  it('answers null without calling anyone when not configured', async () => {
    const none = new NoCruxHistory();
    expect(none.configured).toBe(false);
    await expect(none.history()).resolves.toBeNull();
  });

  it.each([
    ['a 500', FAILURES.serverError(500), 'http'],
    [
      'a rejected key (400)',
      {
        kind: 'json' as const,
        status: 400,
        body: { error: { code: 400, message: 'API key not valid. Please pass a valid API key.', status: 'INVALID_ARGUMENT' } },
      },
      'http',
    ],
    ['a truncated body', FAILURES.malformed(), 'malformed'],
    [
      'a record without collection periods',
      { kind: 'json' as const, body: { record: { key: { origin: ORIGIN }, metrics: {} } } },
      'malformed',
    ],
    [
      'p75s shorter than the periods',
      {
        kind: 'json' as const,
        body: { record: { metrics: { largest_contentful_paint: { percentilesTimeseries: { p75s: [1] } } }, collectionPeriods: [] } },
      },
      'malformed',
    ],
    ['a reset connection', FAILURES.reset(), 'unreachable'],
    ['an answer later than the timeout', FAILURES.slow(3_000, { kind: 'json' as const, body: {} }), 'timeout'],
  ])('turns %s into an UpstreamError', async (_what, failure, kind) => {
    crux.api.failWith(failure);
    const error = await client.history({ origin: ORIGIN }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UpstreamError);
    expect(error).toMatchObject({ provider: 'crux-history', kind });
  });
});
