import {
  DATAFORSEO_KEYWORD_FAILURES,
  FAKE_DATAFORSEO_KEYWORDS_LOGIN,
  FAKE_DATAFORSEO_KEYWORDS_PASSWORD,
  FakeDataForSeoKeywords,
  fakeFiguresFor,
  startDataForSeoKeywordsFake,
} from '@rank/providers/dataforseo/testing/fake-dataforseo-keywords';
import {
  DATAFORSEO_KEYWORDS_FOR_KEYWORDS_PATH,
  DATAFORSEO_KEYWORDS_FOR_SITE_PATH,
  DATAFORSEO_SEARCH_VOLUME_PATH,
} from '@rank/providers/dataforseo/keyword-data.client';
import { OpenApiConformance, RecordedAnswer, recordAnswers } from '../support/openapi-conformance';
import { startTestApp, TestApp } from '../support/test-app';
import { waitFor } from '@rank/platform/testing/wait-for';

/**
 * keyword-ideas and keyword-research over HTTP with DataForSEO played by its fake (DATAFORSEO_LOGIN,
 * DATAFORSEO_PASSWORD, DATAFORSEO_BASE_URL): success, every failure shape, suspension and the shared
 * rate-limit bucket.
 */
describe('Keyword ideas and keyword research from DataForSEO', () => {
  let app: TestApp;
  /** Every answer of the tests below, checked against the served OpenAPI document at the end. */
  let answers: RecordedAnswer[];
  let fake: FakeDataForSeoKeywords;
  let key: string;
  let projectId: string;

  beforeAll(async () => {
    fake = await startDataForSeoKeywordsFake();
    app = await startTestApp({
      env: {
        DATAFORSEO_LOGIN: FAKE_DATAFORSEO_KEYWORDS_LOGIN,
        DATAFORSEO_PASSWORD: FAKE_DATAFORSEO_KEYWORDS_PASSWORD,
        DATAFORSEO_BASE_URL: fake.url,
      },
    });
    answers = recordAnswers(app);
    ({ apiKey: key } = await app.createAccount());
    projectId = (await app.request('POST', '/api/projects', { key, body: { name: 'Shoes', domain: 'shoes.example' } })).body.project._id;
    await app.request('POST', '/api/projects/keywords', {
      key,
      body: { projectId, keywords: ['running shoes'], geoCode: 'DE', langCode: 'de' },
    });
    // Creating the project and adding a locale start keyword-suggestion runs in the background, which
    // call DataForSEO too (keywords_for_site for the project's domain). Wait until they are over (the
    // first run ended, and neither the run count nor the fake's calls moved for a second), so that
    // none of their calls lands in a test that counts this suite's calls.
    let last = '';
    await waitFor(
      async () => {
        const { body } = await app.request('GET', '/api/projects/keyword-suggestions', { key, query: { projectId } });
        return `${body.ready}/${body.runCount}/${fake.requests.length}`;
      },
      (now) => {
        const settled = now.startsWith('true/') && now === last;
        last = now;
        return settled;
      },
      30_000,
      1_000,
    );
    fake.reset();
  });
  afterEach(() => fake.reset());
  afterAll(async () => {
    await app.close();
    await fake.close();
  });

  /** Calls for ideas (the background volume fetcher may call search_volume meanwhile). */
  const researchCalls = () => fake.requests.filter((r) => r.path !== DATAFORSEO_SEARCH_VOLUME_PATH);
  const volume = (text: string) => fakeFiguresFor(text).avgMonthlySearches as number;

  it("answers ideas for the project's keywords and site, highest volume first, tracked keywords left out", async () => {
    const response = await app.request('POST', '/api/projects/keyword-ideas', { key, body: { projectId, geo: 'de', lang: 'DE' } });
    expect(response.status).toBe(200);
    const expected = ['running shoes near me', 'best running shoes', 'shoes', 'shoes login', 'shoes reviews']
      .map((keyword) => ({ keyword, avgMonthlySearches: volume(keyword), competition: fakeFiguresFor(keyword).competition }))
      .sort((a, b) => b.avgMonthlySearches - a.avgMonthlySearches || a.keyword.localeCompare(b.keyword));
    expect(response.body).toEqual({ success: true, ideas: expected });
    const forKeywords = fake.requests.find((r) => r.path === DATAFORSEO_KEYWORDS_FOR_KEYWORDS_PATH)!.body as Record<string, unknown>[];
    expect(forKeywords[0]).toMatchObject({ keywords: ['running shoes'], location_code: 2276, language_code: 'de' });
    const forSite = fake.requests.find((r) => r.path === DATAFORSEO_KEYWORDS_FOR_SITE_PATH)!.body as Record<string, unknown>[];
    expect(forSite[0]).toMatchObject({ target: 'shoes.example', location_code: 2276, language_code: 'de' });
  });

  it.each([
    ['a task-level error in an HTTP 200', DATAFORSEO_KEYWORD_FAILURES.invalidField('keywords'), 'upstream_error'],
    ['a malformed body', DATAFORSEO_KEYWORD_FAILURES.malformed(), 'upstream_error'],
    ['an HTTP 500', DATAFORSEO_KEYWORD_FAILURES.serverError(500), 'upstream_error'],
    ['a reset connection', DATAFORSEO_KEYWORD_FAILURES.reset(), 'service_unavailable'],
  ])('answers keyword-ideas 200 with no ideas after %s', async (_, failure, error) => {
    fake.failWith(failure);
    const response = await app.request('POST', '/api/projects/keyword-ideas', { key, body: { projectId } });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ success: true, ideas: [], error });
  });

  it("refuses keyword-ideas input with 400 naming the field, and another account's project with 404", async () => {
    const bad = await app.request('POST', '/api/projects/keyword-ideas', { key, body: { projectId, geo: 'Germany' } });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/geo/);
    expect((await app.request('POST', '/api/projects/keyword-ideas', { key, body: {} })).body.message).toMatch(/projectId/);
    const other = await app.createAccount();
    expect((await app.request('POST', '/api/projects/keyword-ideas', { key: other.apiKey, body: { projectId } })).status).toBe(404);
  });

  it("answers keyword-research with the seed's related keywords, highest volume first, limited", async () => {
    const response = await app.request('POST', '/api/tools/keyword-research', { key, body: { keyword: 'Trail Shoes', limit: 2 } });
    expect(response.status).toBe(200);
    const texts = ['trail shoes', 'trail shoes near me', 'best trail shoes'].sort((a, b) => volume(b) - volume(a) || a.localeCompare(b));
    expect(response.body).toEqual({
      success: true,
      keyword: 'trail shoes',
      geo: 'US',
      lang: 'en',
      source: 'dataforseo',
      keywords: texts.slice(0, 2).map((keyword) => {
        const f = fakeFiguresFor(keyword);
        return {
          keyword,
          avgMonthlySearches: f.avgMonthlySearches,
          competition: f.competition,
          competitionIndex: f.competitionIndex,
          cpcLow: f.cpcLow,
          cpcHigh: f.cpcHigh,
          trend: f.history.map((m) => m.value),
        };
      }),
    });
    const task = (researchCalls().at(-1)!.body as Record<string, unknown>[])[0];
    expect(task).toMatchObject({ keywords: ['trail shoes'], location_code: 2840, language_code: 'en' });
  });

  it.each([
    ['an empty seed', { keyword: '  ' }, /keyword/],
    ['a seed over 80 characters', { keyword: 'x'.repeat(81) }, /keyword/],
    ['an unsupported country', { keyword: 'shoes', geo: 'ZZ' }, /geo/],
    ['an unsupported language', { keyword: 'shoes', lang: 'xx' }, /lang/],
  ])('answers keyword-research 200 success false for %s', async (_, body, message) => {
    const response = await app.request('POST', '/api/tools/keyword-research', { key, body });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ success: false, message: expect.stringMatching(message) });
    expect(researchCalls()).toEqual([]);
  });

  it('counts a seed in characters, not UTF-16 units: 80 emoji are a seed, 81 are not', async () => {
    const { apiKey } = await app.createAccount();
    const eighty = await app.request('POST', '/api/tools/keyword-research', { key: apiKey, body: { keyword: '🥾'.repeat(80) } });
    expect(eighty.body).toMatchObject({ success: true, keyword: '🥾'.repeat(80) });
    const over = await app.request('POST', '/api/tools/keyword-research', { key: apiKey, body: { keyword: '🥾'.repeat(81) } });
    expect(over.body).toEqual({ success: false, message: 'keyword must be a seed keyword of 1 to 80 characters' });
  });

  it.each([
    ['a task-level error', DATAFORSEO_KEYWORD_FAILURES.invalidField('location_code'), /answered with an error/],
    ['a malformed body', DATAFORSEO_KEYWORD_FAILURES.malformed(), /answered with an error/],
    ['a reset connection', DATAFORSEO_KEYWORD_FAILURES.reset(), /could not be reached/],
  ])('answers keyword-research 200 success false after %s', async (_, failure, message) => {
    fake.failWith(failure);
    const response = await app.request('POST', '/api/tools/keyword-research', { key, body: { keyword: 'shoes' } });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ success: false, message: expect.stringMatching(message) });
  });

  it('refuses a limit outside 1–100 with 400 naming it, and a missing key with 401', async () => {
    const bad = await app.request('POST', '/api/tools/keyword-research', { key, body: { keyword: 'shoes', limit: 101 } });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/limit/);
    expect((await app.request('POST', '/api/tools/keyword-research', { body: { keyword: 'shoes' } })).status).toBe(401);
  });

  it('refuses both to a suspended account with 403 suspended: true', async () => {
    const suspended = await app.createAccount();
    const ownProject = (await app.request('POST', '/api/projects', { key: suspended.apiKey, body: { name: 'S', domain: 's.example' } }))
      .body.project._id;
    await app.admin('PATCH', `/admin/accounts/${suspended.accountId}`, { status: 'suspended' });
    const ideas = await app.request('POST', '/api/projects/keyword-ideas', { key: suspended.apiKey, body: { projectId: ownProject } });
    expect(ideas.status).toBe(403);
    expect(ideas.body).toMatchObject({ suspended: true });
    const research = await app.request('POST', '/api/tools/keyword-research', { key: suspended.apiKey, body: { keyword: 'shoes' } });
    expect(research.status).toBe(403);
    expect(research.body).toMatchObject({ suspended: true });
    expect(researchCalls()).toEqual([]);
  });

  it('counts keyword-ideas and keyword-research in one bucket: the 16th call in a minute is 429 with retryAfter', async () => {
    const fresh = await app.createAccount();
    const ownProject = (await app.request('POST', '/api/projects', { key: fresh.apiKey, body: { name: 'R', domain: 'r.example' } })).body
      .project._id;
    for (let i = 0; i < 15; i++) {
      const response =
        i % 2 === 0
          ? await app.request('POST', '/api/tools/keyword-research', { key: fresh.apiKey, body: { keyword: `seed ${i}` } })
          : await app.request('POST', '/api/projects/keyword-ideas', { key: fresh.apiKey, body: { projectId: ownProject } });
      expect(response.status).toBe(200);
    }
    const refused = await app.request('POST', '/api/projects/keyword-ideas', { key: fresh.apiKey, body: { projectId: ownProject } });
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ success: false, retryAfter: expect.any(Number), limit: 15, window: 60 });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    // Another account's bucket is its own.
    const another = await app.createAccount();
    expect((await app.request('POST', '/api/tools/keyword-research', { key: another.apiKey, body: { keyword: 'shoes' } })).status).toBe(
      200,
    );
  });
  // Last: it reads what every test above recorded.
  describe('the OpenAPI document', () => {
    it('describes every answer above', async () => {
      const conformance = await OpenApiConformance.of(app);
      expect(conformance.problemsOfAnswers(answers)).toEqual([]);
      expect([...conformance.coverage]).toEqual(
        expect.arrayContaining([
          'POST /api/projects/keyword-ideas 200 application/json',
          'POST /api/tools/keyword-research 200 application/json',
        ]),
      );
    });
  });
});
