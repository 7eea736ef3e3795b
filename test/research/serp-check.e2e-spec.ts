import { FakeGoogle } from '@rank/serp/fetcher/test-support/fake-google';
import { readSavedSerp } from '@rank/serp/fetcher/test-support/saved-serp';
import { KeywordVolumes } from '@rank/research/keyword-volumes';
import { VolumeRecorder } from '@rank/research/volume-recorder';
import {
  DATAFORSEO_KEYWORD_FAILURES,
  FAKE_DATAFORSEO_KEYWORDS_LOGIN,
  FAKE_DATAFORSEO_KEYWORDS_PASSWORD,
  FakeDataForSeoKeywords,
  fakeFiguresFor,
  startDataForSeoKeywordsFake,
} from '@rank/providers/dataforseo/testing/fake-dataforseo-keywords';
import { AppProcess, startAppProcess } from '../support/app-process';
import { OpenApiConformance, RecordedAnswer, recordAnswers } from '../support/openapi-conformance';
import { startTestApp, TestApp } from '../support/test-app';
import { waitFor } from '@rank/platform/testing/wait-for';

const EGGS_PAGE = readSavedSerp('fra50__persistent_browser_service__ai_overview.html');
const CAPTCHA_PAGE = readSavedSerp('zlurad__serp-parser__desktop-recaptcha.html');

/** Google plays the saved "how to boil eggs" page, or a captcha for queries starting with "blocked". */
async function startGoogle(): Promise<FakeGoogle> {
  const google = await FakeGoogle.start();
  google.reset((request) =>
    (request.query.get('q') ?? '').startsWith('blocked') ? { kind: 'page', html: CAPTCHA_PAGE } : { kind: 'page', html: EGGS_PAGE },
  );
  return google;
}

const scraperSettings = (google: FakeGoogle) => ({
  GOOGLE_BASE_URL: google.baseUrl,
  SCRAPER_BLOCK_REST_MS: '1',
  SCRAPER_RETRY_BASE_DELAY_MS: '10',
  SCRAPER_RETRY_MAX_DELAY_MS: '20',
  SCRAPER_MIN_INTERVAL_MS: '0',
});

describe('POST /api/tools/serp-check, standalone (every role in one process)', () => {
  let google: FakeGoogle;
  let app: TestApp;
  /** Every answer of the tests below, checked against the served OpenAPI document at the end. */
  let answers: RecordedAnswer[];
  beforeAll(async () => {
    google = await startGoogle();
    app = await startTestApp({ env: { ROLES: 'api,projections,scraper', ...scraperSettings(google) } });
    answers = recordAnswers(app);
  });
  afterAll(async () => {
    await app.close();
    await google.close();
  });

  it("answers the first page's organic results and the keyword's stored volume, with what is left of the window", async () => {
    const { apiKey: key } = await app.createAccount();
    const metrics = {
      keyword: 'how to boil eggs',
      avgMonthlySearches: 4770,
      competition: 'MEDIUM' as const,
      competitionIndex: 56,
      cpcLow: 2.43,
      cpcHigh: 4.43,
      history: [
        { year: 2026, month: 9, value: 4400 },
        { year: 2026, month: 10, value: 5140 },
      ],
    };
    await app.running.app.get(VolumeRecorder).fetched({ geoCode: 'US', langCode: 'en' }, 'dataforseo', new Date(), [metrics]);
    await waitFor(
      () => app.running.app.get(KeywordVolumes).stored([{ geoCode: 'US', langCode: 'en', keyword: 'how to boil eggs' }]),
      (found) => found.length === 1,
    );

    const response = await app.request('POST', '/api/tools/serp-check', {
      key,
      body: { keyword: 'How to boil eggs ', geo: 'us', lang: 'EN' },
    });
    expect(response.status).toBe(200);
    const { serp, volume } = response.body.data;
    expect(response.body).toMatchObject({ success: true, remaining: 9 });
    expect(serp.length).toBeGreaterThanOrEqual(8);
    expect(serp.length).toBeLessThanOrEqual(10);
    expect(serp.map((r: { position: number }) => r.position)).toEqual(serp.map((_: unknown, i: number) => i + 1));
    for (const result of serp)
      expect(result).toEqual({
        position: expect.any(Number),
        url: expect.stringMatching(/^https?:\/\//),
        title: expect.any(String),
        snippet: expect.any(String),
      });
    expect(volume).toEqual({
      value: 4770,
      cpc: 4.43,
      competition: 'MEDIUM',
      metrics: { avgMonthlySearches: 4770, competition: 'MEDIUM', competitionIndex: 56, cpcLow: 2.43, cpcHigh: 4.43 },
      volume: [
        { year: 2026, month: 9, value: 4400 },
        { year: 2026, month: 10, value: 5140 },
      ],
    });
    // Through GOOGLE_BASE_URL, in the asked market.
    const asked = google.searches.at(-1)!;
    expect(asked.query.get('gl')?.toLowerCase()).toBe('us');
  }, 60_000);

  it('refuses the 11th call in 60 s with 429, retryAfter, limit, window and Retry-After; every key of the account shares the bucket', async () => {
    const { apiKey: key } = await app.createAccount();
    const secondKey = (await app.request('POST', '/api/user/api-keys', { key, body: { name: 'second' } })).body.key as string;
    expect(typeof secondKey).toBe('string');
    const remaining: number[] = [];
    for (let i = 0; i < 10; i++) {
      const response = await app.request('POST', '/api/tools/serp-check', {
        key: i % 2 === 0 ? key : secondKey,
        body: { keyword: 'how to boil eggs', geo: 'US', lang: 'en' },
      });
      expect(response.status).toBe(200);
      remaining.push(response.body.remaining);
    }
    expect(remaining).toEqual([9, 8, 7, 6, 5, 4, 3, 2, 1, 0]);
    const refused = await app.request('POST', '/api/tools/serp-check', {
      key,
      body: { keyword: 'how to boil eggs', geo: 'US', lang: 'en' },
    });
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({
      success: false,
      message: expect.stringContaining('10 serp-check requests per 60 seconds'),
      retryAfter: expect.any(Number),
      limit: 10,
      window: 60,
    });
    expect(refused.body.retryAfter).toBeGreaterThanOrEqual(1);
    expect(refused.body.retryAfter).toBeLessThanOrEqual(60);
    expect(refused.headers.get('retry-after')).toBe(String(refused.body.retryAfter));
    const capacity = await app.request('GET', '/api/user/capacity', { key });
    expect(capacity.body.limits.rateLimits.serpCheck).toEqual({ perMinute: 10, windowSeconds: 60, remaining: 0 });
    // Another account is not affected.
    const { apiKey: other } = await app.createAccount();
    expect(
      (await app.request('POST', '/api/tools/serp-check', { key: other, body: { keyword: 'how to boil eggs', geo: 'US', lang: 'en' } }))
        .body.remaining,
    ).toBe(9);
  }, 120_000);

  it('answers a page Google refused with serp [] and the no-data volume (nothing stored, no provider: a miss, not a failure)', async () => {
    const { apiKey: key } = await app.createAccount();
    const response = await app.request('POST', '/api/tools/serp-check', { key, body: { keyword: 'blocked eggs', geo: 'US', lang: 'en' } });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      success: true,
      data: { serp: [], volume: { value: null, cpc: null, competition: null, metrics: null, volume: [] } },
      remaining: 9,
    });
  }, 60_000);

  it('refuses bad input with 400 naming the field, before taking a call from the bucket', async () => {
    const { apiKey: key } = await app.createAccount();
    const cases: [Record<string, unknown>, string][] = [
      [{ geo: 'US', lang: 'en' }, 'keyword'],
      [{ keyword: '  ', geo: 'US', lang: 'en' }, 'keyword'],
      [{ keyword: 'eggs', lang: 'en' }, 'geo'],
      [{ keyword: 'eggs', geo: 'USA', lang: 'en' }, 'geo'],
      [{ keyword: 'eggs', geo: 'US', lang: 'xx' }, 'lang'],
      [{ keyword: 'eggs', geo: 'US', lang: 7 }, 'lang'],
      [{ keyword: 'x'.repeat(201), geo: 'US', lang: 'en' }, 'keyword'],
    ];
    for (const [body, field] of cases) {
      const response = await app.request('POST', '/api/tools/serp-check', { key, body });
      expect(response.status).toBe(400);
      expect(response.body.message).toContain(field);
    }
    expect((await app.request('GET', '/api/user/capacity', { key })).body.limits.rateLimits.serpCheck.remaining).toBe(10);
    expect(
      (await app.request('POST', '/api/tools/serp-check', { key: null, body: { keyword: 'eggs', geo: 'US', lang: 'en' } })).status,
    ).toBe(401);
  });
  // Last: it reads what every test above recorded.
  describe('the OpenAPI document', () => {
    it('describes every answer above', async () => {
      const conformance = await OpenApiConformance.of(app);
      expect(conformance.problemsOfAnswers(answers)).toEqual([]);
      expect([...conformance.coverage]).toEqual(expect.arrayContaining(['POST /api/tools/serp-check 200 application/json']));
    });
  });
});

describe('serp-check with DataForSEO as the keyword-data provider', () => {
  let google: FakeGoogle;
  let dataForSeo: FakeDataForSeoKeywords;
  let app: TestApp;
  /** Every answer of the tests below, checked against the served OpenAPI document at the end. */
  let answers: RecordedAnswer[];
  beforeAll(async () => {
    [google, dataForSeo] = await Promise.all([startGoogle(), startDataForSeoKeywordsFake()]);
    app = await startTestApp({
      env: {
        ROLES: 'api,projections,scraper',
        ...scraperSettings(google),
        DATAFORSEO_LOGIN: FAKE_DATAFORSEO_KEYWORDS_LOGIN,
        DATAFORSEO_PASSWORD: FAKE_DATAFORSEO_KEYWORDS_PASSWORD,
        DATAFORSEO_BASE_URL: dataForSeo.url,
      },
    });
    answers = recordAnswers(app);
  });
  afterAll(async () => {
    await app.close();
    await Promise.all([google.close(), dataForSeo.close()]);
  });

  it('asks the provider live on a stored miss and answers its figures', async () => {
    const { apiKey: key } = await app.createAccount();
    const response = await app.request('POST', '/api/tools/serp-check', {
      key,
      body: { keyword: 'how to poach eggs', geo: 'US', lang: 'en' },
    });
    expect(response.status).toBe(200);
    const figures = fakeFiguresFor('how to poach eggs');
    expect(response.body.data.volume).toEqual({
      value: figures.avgMonthlySearches,
      cpc: figures.cpcHigh,
      competition: figures.competition,
      metrics: {
        avgMonthlySearches: figures.avgMonthlySearches,
        competition: figures.competition,
        competitionIndex: figures.competitionIndex,
        cpcLow: figures.cpcLow,
        cpcHigh: figures.cpcHigh,
      },
      volume: figures.history,
    });
    const asked = dataForSeo.requests.at(-1)!.body as Record<string, unknown>[];
    expect(asked[0]).toMatchObject({ location_code: 2840, language_code: 'en', keywords: ['how to poach eggs'] });
  }, 60_000);

  it('answers null volume fields for a keyword the provider knows nothing of', async () => {
    const { apiKey: key } = await app.createAccount();
    dataForSeo.unknown.add('zzqx eggs');
    const response = await app.request('POST', '/api/tools/serp-check', { key, body: { keyword: 'zzqx eggs', geo: 'US', lang: 'en' } });
    expect(response.status).toBe(200);
    expect(response.body.data.volume).toEqual({ value: null, cpc: null, competition: null, metrics: null, volume: [] });
  }, 60_000);

  it('answers 502 when the page failed and the provider failed too', async () => {
    const { apiKey: key } = await app.createAccount();
    dataForSeo.failWith(DATAFORSEO_KEYWORD_FAILURES.malformed());
    try {
      const response = await app.request('POST', '/api/tools/serp-check', {
        key,
        body: { keyword: 'blocked poached eggs', geo: 'US', lang: 'en' },
      });
      expect(response.status).toBe(502);
      expect(response.body.message).toEqual(expect.any(String));
      expect(JSON.stringify(response.body)).not.toContain(FAKE_DATAFORSEO_KEYWORDS_PASSWORD);
    } finally {
      dataForSeo.failWith(undefined);
    }
  }, 60_000);
  // Last: it reads what every test above recorded.
  describe('the OpenAPI document', () => {
    it('describes every answer above', async () => {
      const conformance = await OpenApiConformance.of(app);
      expect(conformance.problemsOfAnswers(answers)).toEqual([]);
      expect([...conformance.coverage]).toEqual(expect.arrayContaining(['POST /api/tools/serp-check 200 application/json']));
    });
  });
});

describe('serp-check when the api has no browser: a scraper process serves the live check', () => {
  let google: FakeGoogle;
  let app: TestApp;
  let scraper: AppProcess | undefined;
  beforeAll(async () => {
    google = await startGoogle();
    app = await startTestApp({ env: { ROLES: 'api,projections', SERP_CHECK_TIMEOUT_MS: '30000' } });
  });
  afterAll(async () => {
    await scraper?.kill('SIGTERM');
    await app.close();
    await google.close();
  });

  it('waits for the answer a separate scraper appends to the shared log', async () => {
    const { apiKey: key } = await app.createAccount();
    // The scraper shares the api's event store (the SQLite file in DATA_DIR) and nothing else.
    scraper = await startAppProcess({ DATA_DIR: app.dataDir, LOG_LEVEL: 'log', ...scraperSettings(google) }, 60_000, 'scraper');
    const started = Date.now();
    const response = await app.request('POST', '/api/tools/serp-check', {
      key,
      body: { keyword: 'how to boil eggs', geo: 'US', lang: 'en' },
    });
    expect(response.status).toBe(200);
    expect(response.body.data.serp.length).toBeGreaterThanOrEqual(8);
    expect(response.body.data.volume).toEqual({ value: null, cpc: null, competition: null, metrics: null, volume: [] });
    expect(Date.now() - started).toBeLessThan(30_000);
  }, 90_000);

  it('answers serp [] when no scraper answers within SERP_CHECK_TIMEOUT_MS and no volume provider is configured (a miss is no failure)', async () => {
    await scraper?.kill('SIGTERM');
    scraper = undefined;
    const quick = await startTestApp({ env: { ROLES: 'api,projections', SERP_CHECK_TIMEOUT_MS: '300' } });
    try {
      const { apiKey: key } = await quick.createAccount();
      const response = await quick.request('POST', '/api/tools/serp-check', {
        key,
        body: { keyword: 'how to boil eggs', geo: 'US', lang: 'en' },
      });
      expect(response.status).toBe(200);
      expect(response.body).toEqual({
        success: true,
        data: { serp: [], volume: { value: null, cpc: null, competition: null, metrics: null, volume: [] } },
        remaining: 9,
      });
    } finally {
      await quick.close();
    }
  });
});
