import { KeywordDataError } from '../keyword-data/keyword-data-error';
import {
  DATAFORSEO_KEYWORDS_FOR_KEYWORDS_PATH,
  DATAFORSEO_KEYWORDS_FOR_SITE_PATH,
  DATAFORSEO_SEARCH_VOLUME_PATH,
  DataForSeoKeywordData,
} from './keyword-data.client';
import {
  DATAFORSEO_KEYWORD_FAILURES as FAIL,
  FAKE_DATAFORSEO_KEYWORDS_LOGIN as LOGIN,
  FAKE_DATAFORSEO_KEYWORDS_PASSWORD as PASSWORD,
  startDataForSeoKeywordsFake,
  type FakeDataForSeoKeywords,
} from './testing/fake-dataforseo-keywords';

const US_EN = { geoCode: 'US', langCode: 'en' };
const FAST_RETRY = { attempts: 3, baseDelayMs: 10, timeoutMs: 1_000 };

async function failureOf(promise: Promise<unknown>): Promise<KeywordDataError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(KeywordDataError);
  return error as KeywordDataError;
}

describe('DataForSeoKeywordData against a fake DataForSEO Keywords Data API', () => {
  let fake: FakeDataForSeoKeywords;
  let client: DataForSeoKeywordData;

  beforeAll(async () => {
    fake = await startDataForSeoKeywordsFake();
    client = new DataForSeoKeywordData({ login: LOGIN, password: PASSWORD, baseUrl: fake.url }, FAST_RETRY);
  });
  afterAll(() => fake.close());
  beforeEach(() => fake.reset());

  it('asks search_volume/live with Basic auth, location_code 2000 + ISO numeric, language_code, and maps the figures', async () => {
    fake.keywords.set('running shoes', {
      avgMonthlySearches: 90_500,
      competition: 'HIGH',
      competitionIndex: 100,
      cpcLow: 0.61,
      cpcHigh: 2.8,
      history: [
        { year: 2025, month: 4, value: 74_000 },
        { year: 2025, month: 5, value: 90_500 },
      ],
    });
    const figures = await client.searchVolumes({ geoCode: 'DE', langCode: 'de' }, ['Running Shoes']);
    expect(fake.requests).toHaveLength(1);
    const [request] = fake.requests;
    expect(request.path).toBe(DATAFORSEO_SEARCH_VOLUME_PATH);
    expect(request.headers.authorization).toBe(`Basic ${Buffer.from(`${LOGIN}:${PASSWORD}`).toString('base64')}`);
    expect(request.body).toEqual([{ location_code: 2276, language_code: 'de', keywords: ['running shoes'], search_partners: false }]);
    expect(figures).toEqual([
      {
        keyword: 'running shoes',
        avgMonthlySearches: 90_500,
        competition: 'HIGH',
        competitionIndex: 100,
        cpcLow: 0.61,
        cpcHigh: 2.8,
        // The fake sends the newest month first, as DataForSEO does; the port wants the oldest first.
        history: [
          { year: 2025, month: 4, value: 74_000 },
          { year: 2025, month: 5, value: 90_500 },
        ],
      },
    ]);
  });

  it('gives null figures and an empty history for a keyword Google Ads has no data for', async () => {
    fake.unknown.add('zzqx unknown');
    const [figures] = await client.searchVolumes(US_EN, ['zzqx unknown']);
    expect(figures).toEqual({
      keyword: 'zzqx unknown',
      avgMonthlySearches: null,
      competition: null,
      competitionIndex: null,
      cpcLow: null,
      cpcHigh: null,
      history: [],
    });
  });

  it('splits 2,500 keywords into tasks of 1,000, 1,000 and 500, one call each, and returns them all', async () => {
    const keywords = Array.from({ length: 2_500 }, (_, i) => `keyword ${i}`);
    // A roomy timeout: a slow answer here would be retried and counted as an extra call.
    const patient = new DataForSeoKeywordData(
      { login: LOGIN, password: PASSWORD, baseUrl: fake.url },
      { ...FAST_RETRY, timeoutMs: 10_000 },
    );
    const figures = await patient.searchVolumes(US_EN, keywords);
    const sizes = fake.requests.map((r) => (r.body as { keywords: string[] }[])[0].keywords.length);
    expect(sizes).toEqual([1_000, 1_000, 500]);
    expect(figures.map((f) => f.keyword)).toEqual(keywords);
  });

  it('leaves out keywords DataForSEO would refuse the whole task for (over 80 characters or 10 words), and repeats', async () => {
    await client.searchVolumes(US_EN, [
      'ok keyword',
      'ok keyword',
      'x'.repeat(81),
      'one two three four five six seven eight nine ten eleven',
    ]);
    expect((fake.requests[0].body as { keywords: string[] }[])[0].keywords).toEqual(['ok keyword']);
  });

  it('a task-level error inside an HTTP 200 is upstream_error, not retried when it is a 4xx-like code', async () => {
    fake.failWith(FAIL.invalidField('language_code'));
    const error = await failureOf(client.searchVolumes(US_EN, ['a']));
    expect(error.failure).toBe('upstream_error');
    expect(error.message).toContain("40501: Invalid Field: 'language_code'.");
    expect(fake.requests).toHaveLength(1);
  });

  it('a call-level status_code error is upstream_error', async () => {
    fake.failWith(FAIL.callError(40200, 'Payment Required.'));
    const error = await failureOf(client.searchVolumes(US_EN, ['a']));
    expect(error.failure).toBe('upstream_error');
    expect(error.status).toBe(402);
  });

  it('wrong credentials: the fake answers 401 / 40100, which is upstream_error without a retry', async () => {
    const wrong = new DataForSeoKeywordData({ login: LOGIN, password: 'wrong', baseUrl: fake.url }, FAST_RETRY);
    const error = await failureOf(wrong.searchVolumes(US_EN, ['a']));
    expect(error.failure).toBe('upstream_error');
    expect(error.status).toBe(401);
    expect(fake.requests).toHaveLength(1);
  });

  it('retries a 5xx and a 50301 "Too many requests" task error, then succeeds', async () => {
    fake.failNext(FAIL.serverError(503));
    fake.failNext(FAIL.tooManyRequests());
    const figures = await client.searchVolumes(US_EN, ['retry me']);
    expect(figures.map((f) => f.keyword)).toEqual(['retry me']);
    expect(fake.requests).toHaveLength(3);
  });

  it('gives up after three tries of a lasting 5xx: upstream_error (the provider answered, with an error)', async () => {
    fake.failWith(FAIL.serverError(500));
    const error = await failureOf(client.searchVolumes(US_EN, ['a']));
    expect(error.failure).toBe('upstream_error');
    expect(fake.requests).toHaveLength(3);
  });

  it('a malformed body is upstream_error, not retried', async () => {
    fake.failWith(FAIL.malformed());
    const error = await failureOf(client.searchVolumes(US_EN, ['a']));
    expect(error.failure).toBe('upstream_error');
    expect(error.kind).toBe('malformed');
    expect(fake.requests).toHaveLength(1);
  });

  /** An answer of one successful task whose result is `items`, as DataForSEO sends it. */
  const answerWithItems = (items: unknown[]) =>
    fake.failWith({
      kind: 'json',
      body: { status_code: 20000, status_message: 'Ok.', tasks: [{ status_code: 20000, status_message: 'Ok.', result: items }] },
    });

  it('keeps one figure a month, oldest first: a month listed twice keeps the one listed first', async () => {
    answerWithItems([
      {
        keyword: 'dupmonth',
        search_volume: 55,
        monthly_searches: [
          { year: 2025, month: 5, search_volume: 50 },
          { year: 2025, month: 3, search_volume: 30 },
          { year: 2025, month: 5, search_volume: 55 },
          { year: 2024, month: 12, search_volume: 120 },
        ],
      },
    ]);
    const [figures] = await client.searchVolumes(US_EN, ['dupmonth']);
    // Before: May 2025 twice, 50 and 55 (serp-check answered both).
    expect(figures.history).toEqual([
      { year: 2024, month: 12, value: 120 },
      { year: 2025, month: 3, value: 30 },
      { year: 2025, month: 5, value: 50 },
    ]);
  });

  it.each([
    ['an item that is not an object', ['x']],
    ['an item whose keyword is not text', [{ keyword: 5 }]],
    ['an item whose search_volume is not a number', [{ keyword: 'x', search_volume: 'lots' }]],
    ['an item whose monthly_searches is not a list', [{ keyword: 'x', search_volume: 10, monthly_searches: 'no' }]],
    ['an item whose competition is not text', [{ keyword: 'x', competition: 3 }]],
  ])('%s is a malformed answer (upstream_error), not a keyword without data', async (why, items) => {
    // Before: the item was skipped or read as null figures, and stored as "no data" for 30 days.
    answerWithItems(items);
    const error = await failureOf(client.searchVolumes(US_EN, ['x']));
    expect({ kind: error.kind, failure: error.failure, message: error.message }).toEqual({
      kind: 'malformed',
      failure: 'upstream_error',
      message: expect.stringContaining(`the answer has ${why}`),
    });
  });

  it('an answer without tasks is malformed', async () => {
    fake.failWith({ kind: 'json', body: { status_code: 20000, status_message: 'Ok.' } });
    expect((await failureOf(client.searchVolumes(US_EN, ['a']))).kind).toBe('malformed');
  });

  it('a provider slower than the timeout is unavailable, after bounded retries', async () => {
    fake.failWith(FAIL.slow(3_000, { kind: 'json', body: {} }));
    const started = Date.now();
    const error = await failureOf(client.searchVolumes(US_EN, ['a']));
    expect(error.failure).toBe('unavailable');
    expect(error.kind).toBe('timeout');
    expect(fake.requests).toHaveLength(3);
    // Three tries cut off at 1 s each, not three waits of 3 s (a generous bound: the machine is shared).
    expect(Date.now() - started).toBeLessThan(6_000);
  });

  it('a caller that stops waiting cuts the ideas call off at once, and no retry starts after it', async () => {
    // A stuck provider, then a 503 that would be retried: without the signal, three tries of 1 s.
    fake.failWith(FAIL.slow(3_000, FAIL.serverError(503)));
    const cancel = new AbortController();
    setTimeout(() => cancel.abort(), 150);
    const started = Date.now();
    const error = await failureOf(client.ideasForSite(US_EN, 'shop.example.com', { signal: cancel.signal }));
    expect(error.kind).toBe('timeout');
    expect(error.message).toContain('the caller stopped waiting');
    // Well under the first try's own 1 s timeout (a generous bound: the machine is shared).
    expect(Date.now() - started).toBeLessThan(900);
    // Long enough for a retry to have arrived (10 ms apart here) had one started.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(fake.requests).toHaveLength(1);
  });

  it('a signal that aborts during the pause before a retry ends the call with the last error, without that retry', async () => {
    fake.failWith(FAIL.serverError(503));
    const slowRetry = new DataForSeoKeywordData(
      { login: LOGIN, password: PASSWORD, baseUrl: fake.url },
      { ...FAST_RETRY, baseDelayMs: 5_000 },
    );
    const cancel = new AbortController();
    setTimeout(() => cancel.abort(), 200);
    const started = Date.now();
    const error = await failureOf(slowRetry.ideasForKeywords(US_EN, ['coffee'], { signal: cancel.signal }));
    expect(error.status).toBe(503);
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(fake.requests).toHaveLength(1);
  });

  it('a connection reset is unavailable; one reset then success recovers', async () => {
    fake.failWith(FAIL.reset());
    expect((await failureOf(client.searchVolumes(US_EN, ['a']))).failure).toBe('unavailable');
    fake.failWith(undefined);
    fake.failNext(FAIL.reset());
    expect(await client.searchVolumes(US_EN, ['b'])).toHaveLength(1);
  });

  it('a provider nobody listens at is unavailable', async () => {
    const nowhere = new DataForSeoKeywordData(
      { login: LOGIN, password: PASSWORD, baseUrl: 'http://127.0.0.1:9' },
      { ...FAST_RETRY, attempts: 1 },
    );
    expect((await failureOf(nowhere.searchVolumes(US_EN, ['a']))).failure).toBe('unavailable');
  });

  it('an unknown country fails before any call', async () => {
    const error = await failureOf(client.searchVolumes({ geoCode: 'XX', langCode: 'en' }, ['a']));
    expect(error.failure).toBe('upstream_error');
    expect(fake.requests).toHaveLength(0);
  });

  it('ideas for keywords: at most 20 seeds, one task, ideas with figures, cut to the limit', async () => {
    fake.ideas = ['coffee', 'coffee beans', 'coffee near me'];
    const seeds = Array.from({ length: 25 }, (_, i) => `coffee ${i}`);
    const ideas = await client.ideasForKeywords(US_EN, seeds, { limit: 2 });
    expect(fake.requests[0].path).toBe(DATAFORSEO_KEYWORDS_FOR_KEYWORDS_PATH);
    expect((fake.requests[0].body as { keywords: string[] }[])[0].keywords).toHaveLength(20);
    expect(ideas.map((i) => i.keyword)).toEqual(['coffee', 'coffee beans']);
    expect(ideas[0].avgMonthlySearches).toEqual(expect.any(Number));
  });

  it('ideas for a site: keywords_for_site with the domain as target', async () => {
    const ideas = await client.ideasForSite(US_EN, 'example.com');
    expect(fake.requests[0].path).toBe(DATAFORSEO_KEYWORDS_FOR_SITE_PATH);
    expect(fake.requests[0].body).toEqual([
      { location_code: 2840, language_code: 'en', target: 'example.com', target_type: 'site', search_partners: false },
    ]);
    expect(ideas.map((i) => i.keyword)).toEqual(['example', 'example login', 'example reviews']);
  });
});
