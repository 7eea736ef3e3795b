import { readSavedSerp } from '@rank/serp/fetcher/test-support/saved-serp';
import { parseSerpPage } from '@rank/serp/parser';
import { FAILURES, type FakeJsonApi } from '../testing/fake-json-api';
import { DATAFORSEO_SERP_PATH, DataForSeoSerpSource } from './serp.client';
import {
  dataForSeoSerpAnswer,
  dataForSeoTaskError,
  FAKE_DATAFORSEO_LOGIN,
  FAKE_DATAFORSEO_PASSWORD,
  startFakeDataForSeoSerp,
  type FakeSerp,
} from './testing/fake-dataforseo-serp';

/** Our parser's reading of saved real pages: the fake answers with the same results, so positions can be compared. */
function savedSerp(fileName: string): FakeSerp {
  const page = parseSerpPage(readSavedSerp(fileName));
  if (page.kind !== 'results') throw new Error(`${fileName} is not a result page`);
  return { organic: page.organic, aiOverview: page.aiOverview };
}
const HUNDRED = savedSerp('zlurad__serp-parser__desktop-google-100.html');
const EGGS = savedSerp('fra50__persistent_browser_service__ai_overview.html');
/** The same page, its first result shown as a featured snippet and its 3rd and 4th indented under the 2nd. */
const SNIPPET_AND_INDENTED: FakeSerp = { ...HUNDRED, featuredSnippet: true, indented: [3, 4] };

describe('DataForSeoSerpSource against a fake DataForSEO SERP API', () => {
  let api: FakeJsonApi;
  const source = (overrides: Partial<ConstructorParameters<typeof DataForSeoSerpSource>[0]> = {}) =>
    new DataForSeoSerpSource({
      login: FAKE_DATAFORSEO_LOGIN,
      password: FAKE_DATAFORSEO_PASSWORD,
      baseUrl: api.origin,
      timeoutMs: 2_000,
      retry: { attempts: 2, baseDelayMs: 10, timeoutMs: overrides.timeoutMs ?? 2_000 },
      ...overrides,
    });

  beforeAll(async () => {
    api = await startFakeDataForSeoSerp(
      new Map([
        ['google', HUNDRED],
        ['how to boil eggs', EGGS],
        ['featured', SNIPPET_AND_INDENTED],
      ]),
    );
  });
  afterAll(() => api.close());
  beforeEach(() => {
    api.failWith(undefined);
    api.requests.length = 0;
  });

  it('reads the top 100 in one call, with the positions our parser reads off the same page', async () => {
    const outcome = await source().fetchSerp({ keyword: 'google', geoCode: 'US', langCode: 'en', depth: 100 });
    expect(api.requests).toHaveLength(1);
    expect(api.requests[0]).toMatchObject({ method: 'POST', path: DATAFORSEO_SERP_PATH });
    expect(api.requests[0].body).toEqual([
      {
        keyword: 'google',
        location_code: 2840,
        language_code: 'en',
        depth: 100,
        device: 'desktop',
        group_organic_results: false,
        load_async_ai_overview: true,
      },
    ]);
    expect(outcome.kind).toBe('success');
    if (outcome.kind !== 'success') return;
    expect(outcome.organic.map(({ position, url, domain }) => ({ position, url, domain }))).toEqual(
      HUNDRED.organic.map(({ position, url, domain }) => ({ position, url, domain })),
    );
    expect(outcome.pagesRead).toBe(1);
  });

  it('maps the AI Overview references to its sources, and sends the language without its region', async () => {
    const outcome = await source().fetchSerp({ keyword: 'how to boil eggs', geoCode: 'de', langCode: 'pt-BR', depth: 50 });
    expect(api.requests[0].body).toEqual([expect.objectContaining({ location_code: 2276, language_code: 'pt', depth: 50 })]);
    expect(outcome.kind === 'success' && outcome.aiOverview.map((s) => s.url)).toEqual(EGGS.aiOverview.map((s) => s.url));
    expect(outcome.kind === 'success' && outcome.organic.map((r) => r.position)).toEqual(EGGS.organic.map((r) => r.position));
  });

  it('counts a featured snippet as the organic result it cites, and an indented result as its own position, as our parser does', async () => {
    const outcome = await source().fetchSerp({ keyword: 'featured', geoCode: 'US', langCode: 'en', depth: 100 });
    const expected = HUNDRED.organic.map(({ position, url }) => ({ position, url }));
    expect(outcome.kind === 'success' && outcome.organic.map(({ position, url }) => ({ position, url }))).toEqual(expected);

    // An answer that still folds indented results into their parent (`related_result`) reads the same.
    const grouped = dataForSeoSerpAnswer({ keyword: 'featured', location_code: 2840, language_code: 'en' }, SNIPPET_AND_INDENTED);
    expect(JSON.stringify(grouped)).toContain('"related_result":[{');
    api.failWith({ kind: 'json', body: grouped });
    const folded = await source().fetchSerp({ keyword: 'featured', geoCode: 'US', langCode: 'en', depth: 100 });
    expect(folded.kind === 'success' && folded.organic.map(({ position, url }) => ({ position, url }))).toEqual(expected);
  });

  it('sends "+" and "%" in a keyword as DataForSEO asks (%2B, %25), since it decodes them', async () => {
    await source().fetchSerp({ keyword: 'c++ tutorial', geoCode: 'US', langCode: 'en', depth: 10 });
    await source().fetchSerp({ keyword: '100% cotton', geoCode: 'US', langCode: 'en', depth: 10 });
    expect(api.requests.map((request) => (request.body as { keyword: string }[])[0].keyword)).toEqual([
      'c%2B%2B tutorial',
      '100%25 cotton',
    ]);
  });

  it('reads a query Google finds nothing for (items null) as an empty result, not a failure', async () => {
    const outcome = await source().fetchSerp({ keyword: 'nothing at all', geoCode: 'US', langCode: 'en', depth: 50 });
    expect(outcome).toMatchObject({ kind: 'success', organic: [], aiOverview: [] });
  });

  it('fails, naming DataForSEO and its status, on a bad login, a failed task and a server error', async () => {
    const badLogin = await source({ password: 'wrong' }).fetchSerp({ keyword: 'google', geoCode: 'US', langCode: 'en', depth: 50 });
    expect(badLogin).toMatchObject({
      kind: 'failed',
      cause: 'upstream_refused',
      egress: 'dataforseo',
      reason: expect.stringMatching(/^dataforseo: .*answered 40100: You are not authorized/),
    });
    expect(api.requests).toHaveLength(1);
    expect(JSON.stringify(badLogin)).not.toContain('wrong');

    // DataForSEO's own failure is tried once more (the envelope's retry), then given up to the next source.
    api.requests.length = 0;
    api.failWith(dataForSeoTaskError(50000, 'Internal Error.'));
    expect(await source().fetchSerp({ keyword: 'google', geoCode: 'US', langCode: 'en', depth: 50 })).toMatchObject({
      kind: 'failed',
      cause: 'http_error',
      reason: expect.stringContaining('50000: Internal Error.'),
    });
    expect(api.requests).toHaveLength(2);

    api.failWith(FAILURES.serverError(503));
    expect(await source().fetchSerp({ keyword: 'google', geoCode: 'US', langCode: 'en', depth: 50 })).toMatchObject({
      kind: 'failed',
      cause: 'http_error',
    });

    // The search engine's own failure (after DataForSEO's retries) passes, like a server error: not a refusal of our login.
    api.requests.length = 0;
    api.failWith(dataForSeoTaskError(40101, 'Internal SE Server Error.'));
    expect(await source().fetchSerp({ keyword: 'google', geoCode: 'US', langCode: 'en', depth: 50 })).toMatchObject({
      kind: 'failed',
      cause: 'http_error',
      reason: expect.stringContaining('40101: Internal SE Server Error.'),
    });
    expect(api.requests).toHaveLength(2);
  });

  it('reads a task with no search results (40102) as Google finding nothing, a valid "not ranking"', async () => {
    api.failWith(dataForSeoTaskError(40102, 'No Search Results.'));
    expect(await source().fetchSerp({ keyword: 'qzxv nothing', geoCode: 'US', langCode: 'en', depth: 50 })).toMatchObject({
      kind: 'success',
      organic: [],
      aiOverview: [],
    });
  });

  it('fails on a malformed answer and on a timeout, without throwing', async () => {
    api.failWith(FAILURES.malformed());
    expect(await source().fetchSerp({ keyword: 'google', geoCode: 'US', langCode: 'en', depth: 50 })).toMatchObject({
      kind: 'failed',
      cause: 'malformed_answer',
    });
    api.failWith({ kind: 'json', body: { status_code: 20000, tasks: [{ status_code: 20000, result: [{ items: 'oops' }] }] } });
    expect(await source().fetchSerp({ keyword: 'google', geoCode: 'US', langCode: 'en', depth: 50 })).toMatchObject({
      kind: 'failed',
      cause: 'malformed_answer',
      reason: expect.stringMatching(/not a list/),
    });
    // A task that says Ok. but carries no result is not "nothing found": that is a 40102.
    api.failWith({ kind: 'json', body: { status_code: 20000, tasks: [{ status_code: 20000, result: null }] } });
    expect(await source().fetchSerp({ keyword: 'google', geoCode: 'US', langCode: 'en', depth: 50 })).toMatchObject({
      kind: 'failed',
      cause: 'malformed_answer',
      reason: expect.stringMatching(/without a result/),
    });
    api.failWith({ kind: 'json', body: { tasks: [] } });
    expect(await source().fetchSerp({ keyword: 'google', geoCode: 'US', langCode: 'en', depth: 50 })).toMatchObject({
      kind: 'failed',
      cause: 'malformed_answer',
      reason: expect.stringMatching(/without a status_code/),
    });

    api.failWith(FAILURES.slow(1_000, { kind: 'json', body: {} }));
    const started = Date.now();
    expect(
      await source({ timeoutMs: 200, retry: { attempts: 1, baseDelayMs: 10, timeoutMs: 200 } }).fetchSerp({
        keyword: 'google',
        geoCode: 'US',
        langCode: 'en',
        depth: 50,
      }),
    ).toMatchObject({ kind: 'failed', cause: 'timeout' });
    expect(Date.now() - started).toBeLessThan(900);

    api.failWith(FAILURES.reset());
    expect(await source().fetchSerp({ keyword: 'google', geoCode: 'US', langCode: 'en', depth: 50 })).toMatchObject({
      kind: 'failed',
      cause: 'load_error',
    });
  });
});
