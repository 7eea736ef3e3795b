import { readSavedSerp } from '@rank/serp/fetcher/test-support/saved-serp';
import { parseSerpPage } from '@rank/serp/parser';
import { FAILURES, type FakeJsonApi } from '../testing/fake-json-api';
import { SerpApiSource } from './serp.client';
import { FAKE_SERPAPI_KEY, startFakeSerpApi, type FakeSerp } from './testing/fake-serpapi';

function savedSerp(fileName: string): FakeSerp {
  const page = parseSerpPage(readSavedSerp(fileName));
  if (page.kind !== 'results') throw new Error(`${fileName} is not a result page`);
  return { organic: page.organic, aiOverview: page.aiOverview };
}
const HUNDRED = savedSerp('zlurad__serp-parser__desktop-google-100.html');
const EGGS = savedSerp('fra50__persistent_browser_service__ai_overview.html');

describe('SerpApiSource against a fake SerpApi', () => {
  let api: FakeJsonApi;
  const source = (overrides: Partial<ConstructorParameters<typeof SerpApiSource>[0]> = {}) =>
    new SerpApiSource({ apiKey: FAKE_SERPAPI_KEY, baseUrl: api.origin, timeoutMs: 2_000, ...overrides });

  beforeAll(async () => {
    api = await startFakeSerpApi(
      new Map([
        ['google', HUNDRED],
        ['how to boil eggs', EGGS],
        ['soft boiled eggs', { ...EGGS, overviewByToken: true }],
        ['poached eggs', { ...EGGS, overviewByToken: 'expired' }],
      ]),
    );
  });
  afterAll(() => api.close());
  beforeEach(() => {
    api.failWith(undefined);
    api.requests.length = 0;
  });

  it('pages by ten with engine=google, q, gl, hl, start, num and the key, up to the depth, positions running on', async () => {
    const outcome = await source().fetchSerp({ keyword: 'google', geoCode: 'US', langCode: 'en', depth: 50 });
    expect(api.requests.map((r) => r.query.get('start'))).toEqual(['0', '10', '20', '30', '40']);
    expect(Object.fromEntries(api.requests[0].query)).toEqual({
      engine: 'google',
      q: 'google',
      gl: 'us',
      hl: 'en',
      start: '0',
      num: '10',
      api_key: FAKE_SERPAPI_KEY,
    });
    expect(outcome.kind === 'success' && outcome.organic.map(({ position, url }) => ({ position, url }))).toEqual(
      HUNDRED.organic.slice(0, 50).map(({ position, url }) => ({ position, url })),
    );
  });

  it('stops at the last page and maps the AI Overview references', async () => {
    const outcome = await source().fetchSerp({ keyword: 'how to boil eggs', geoCode: 'US', langCode: 'en', depth: 100 });
    expect(api.requests).toHaveLength(1);
    expect(outcome.kind === 'success' && outcome.aiOverview.map((s) => s.url)).toEqual(EGGS.aiOverview.map((s) => s.url));
  });

  it('fetches an overview Google sent in a request of its own with its page_token, at once, from the Google AI Overview API', async () => {
    const outcome = await source().fetchSerp({ keyword: 'soft boiled eggs', geoCode: 'US', langCode: 'en', depth: 100 });
    expect(api.requests.map((r) => r.query.get('engine'))).toEqual(['google', 'google_ai_overview']);
    const token = (api.requests[1].query.get('page_token') ?? '') as string;
    expect(Object.fromEntries(api.requests[1].query)).toEqual({
      engine: 'google_ai_overview',
      page_token: token,
      api_key: FAKE_SERPAPI_KEY,
    });
    expect(token).not.toBe('');
    expect(outcome.kind === 'success' && outcome.aiOverview.map((s) => s.url)).toEqual(EGGS.aiOverview.map((s) => s.url));
    expect(outcome.kind === 'success' && outcome.organic.map((r) => r.url)).toEqual(EGGS.organic.map((r) => r.url));
  });

  it('fails the search when the deferred overview cannot be had, rather than record the check without its sources', async () => {
    // Given a token SerpApi no longer takes (it expires minutes after the search)
    const outcome = await source().fetchSerp({ keyword: 'poached eggs', geoCode: 'US', langCode: 'en', depth: 10 });
    expect(api.requests.map((r) => r.query.get('engine'))).toEqual(['google', 'google_ai_overview']);
    expect(outcome).toMatchObject({ kind: 'failed', reason: expect.stringMatching(/^serpapi: .*400: Invalid page_token\./) });
  });

  it('reads "Google hasn\'t returned any results" as an empty result', async () => {
    expect(await source().fetchSerp({ keyword: 'nothing', geoCode: 'US', langCode: 'en', depth: 50 })).toMatchObject({
      kind: 'success',
      organic: [],
    });
  });

  it('fails on a bad key, a server error, a malformed answer and a timeout, without throwing or showing the key', async () => {
    const badKey = await source({ apiKey: 'wrong-key' }).fetchSerp({ keyword: 'google', geoCode: 'US', langCode: 'en', depth: 50 });
    expect(badKey).toMatchObject({
      kind: 'failed',
      cause: 'upstream_refused',
      reason: expect.stringMatching(/^serpapi: .*401: Invalid API key/),
    });
    expect(JSON.stringify(badKey)).not.toContain('wrong-key');

    api.failWith(FAILURES.serverError(502));
    expect(await source().fetchSerp({ keyword: 'google', geoCode: 'US', langCode: 'en', depth: 50 })).toMatchObject({
      kind: 'failed',
      cause: 'http_error',
    });
    api.failWith(FAILURES.malformed());
    expect(await source().fetchSerp({ keyword: 'google', geoCode: 'US', langCode: 'en', depth: 50 })).toMatchObject({
      kind: 'failed',
      cause: 'malformed_answer',
    });
    api.failWith({ kind: 'json', body: { search_metadata: { status: 'Success' }, organic_results: { oops: true } } });
    expect(await source().fetchSerp({ keyword: 'google', geoCode: 'US', langCode: 'en', depth: 50 })).toMatchObject({
      kind: 'failed',
      cause: 'malformed_answer',
    });
    api.failWith(FAILURES.slow(1_000, { kind: 'json', body: {} }));
    expect(await source({ timeoutMs: 200 }).fetchSerp({ keyword: 'google', geoCode: 'US', langCode: 'en', depth: 50 })).toMatchObject({
      kind: 'failed',
      cause: 'timeout',
    });
  });
});
