import { KeywordDataError } from '../keyword-data/keyword-data-error';
import { googleAdsLanguageConstant } from './google-ads-languages';
import { GoogleAdsKeywordData, historicalMetricsPath, keywordIdeasPath } from './keyword-planner.client';
import {
  GOOGLE_ADS_FAILURES as FAIL,
  FAKE_GOOGLE_ADS_CREDENTIALS as CREDS,
  startGoogleAdsFake,
  type FakeGoogleAds,
} from './testing/fake-google-ads';

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

describe('GoogleAdsKeywordData against a fake Google Ads API and OAuth endpoint', () => {
  let fake: FakeGoogleAds;
  let client: GoogleAdsKeywordData;

  beforeAll(async () => {
    fake = await startGoogleAdsFake();
  });
  afterAll(() => fake.close());
  beforeEach(() => {
    fake.reset();
    client = new GoogleAdsKeywordData(fake.config(), FAST_RETRY);
  });

  it('maps languages to Google Ads language constants', () => {
    expect(googleAdsLanguageConstant('en')).toBe('languageConstants/1000');
    expect(googleAdsLanguageConstant('DE')).toBe('languageConstants/1001');
    expect(googleAdsLanguageConstant('he')).toBe('languageConstants/1027');
    expect(googleAdsLanguageConstant('xh')).toBeUndefined();
  });

  it('exchanges the refresh token, then asks generateKeywordHistoricalMetrics with the headers and targeting, and maps micros, enums and months', async () => {
    fake.keywords.set('running shoes', {
      avgMonthlySearches: 90_500,
      competition: 'HIGH',
      competitionIndex: 100,
      cpcLow: 0.61,
      cpcHigh: 2.8,
      history: [
        { year: 2024, month: 12, value: 74_000 },
        { year: 2025, month: 1, value: 90_500 },
      ],
    });
    const figures = await client.searchVolumes({ geoCode: 'DE', langCode: 'de' }, ['Running Shoes']);
    expect(fake.tokenRequests).toHaveLength(1);
    const [call] = fake.adsRequests;
    expect(call.path).toBe(`/v26/customers/${CREDS.customerId}:generateKeywordHistoricalMetrics`);
    expect(call.headers['developer-token']).toBe(CREDS.developerToken);
    expect(call.headers.authorization).toMatch(/^Bearer ya29\.fake-1-/);
    expect(call.headers['login-customer-id']).toBeUndefined();
    expect(call.body).toEqual({
      language: 'languageConstants/1001',
      geoTargetConstants: ['geoTargetConstants/2276'],
      keywordPlanNetwork: 'GOOGLE_SEARCH',
      keywords: ['running shoes'],
      historicalMetricsOptions: { includeAverageCpc: true },
    });
    expect(figures).toEqual([
      {
        keyword: 'running shoes',
        avgMonthlySearches: 90_500,
        competition: 'HIGH',
        competitionIndex: 100,
        cpcLow: 0.61,
        cpcHigh: 2.8,
        history: [
          { year: 2024, month: 12, value: 74_000 },
          { year: 2025, month: 1, value: 90_500 },
        ],
      },
    ]);
  });

  it('sends login-customer-id when a manager account is configured', async () => {
    client = new GoogleAdsKeywordData(fake.config({ loginCustomerId: '9998887777' }), FAST_RETRY);
    await client.searchVolumes(US_EN, ['a']);
    expect(fake.adsRequests[0].headers['login-customer-id']).toBe('9998887777');
  });

  it('reuses the access token until it nears expiry, then refreshes it', async () => {
    await client.searchVolumes(US_EN, ['a']);
    await client.searchVolumes(US_EN, ['b']);
    await Promise.all([client.searchVolumes(US_EN, ['c']), client.ideasForKeywords(US_EN, ['d'])]);
    expect(fake.tokenRequests).toHaveLength(1);
    // A token that lives no longer than the renewal margin is renewed on every call.
    fake.tokenLifetimeSeconds = 30;
    const shortLived = new GoogleAdsKeywordData(fake.config(), FAST_RETRY);
    await shortLived.searchVolumes(US_EN, ['a']);
    await shortLived.searchVolumes(US_EN, ['b']);
    expect(fake.tokenRequests).toHaveLength(3);
  });

  it('a token the API refuses (revoked) is exchanged once more, and the call goes through', async () => {
    await client.searchVolumes(US_EN, ['a']);
    fake.revokeTokens();
    expect(await client.searchVolumes(US_EN, ['b'])).toHaveLength(1);
    expect(fake.tokenRequests).toHaveLength(2);
  });

  it('a refresh token Google refuses (invalid_grant) is upstream_error', async () => {
    client = new GoogleAdsKeywordData(fake.config({ refreshToken: 'revoked' }), FAST_RETRY);
    const error = await failureOf(client.searchVolumes(US_EN, ['a']));
    expect(error.failure).toBe('upstream_error');
    expect(error.message).toContain('invalid_grant');
    expect(error.message).not.toContain('revoked');
    expect(fake.adsRequests).toHaveLength(0);
  });

  it('a wrong developer token: 401 after one fresh token, upstream_error', async () => {
    client = new GoogleAdsKeywordData(fake.config({ developerToken: 'wrong' }), FAST_RETRY);
    const error = await failureOf(client.searchVolumes(US_EN, ['a']));
    expect(error.failure).toBe('upstream_error');
    expect(error.status).toBe(401);
    expect(error.message).toContain('The developer token is not valid.');
  });

  it('close variants: every asked text gets the merged figures', async () => {
    fake.closeVariants.set('car', 'cars');
    const figures = await client.searchVolumes(US_EN, ['car', 'cars', 'boat']);
    expect(figures.map((f) => f.keyword).sort()).toEqual(['boat', 'car', 'cars']);
    expect(figures.find((f) => f.keyword === 'car')?.avgMonthlySearches).toBe(
      figures.find((f) => f.keyword === 'cars')?.avgMonthlySearches,
    );
  });

  it('splits 2,001 keywords into requests of 1,000, 1,000 and 1', async () => {
    const keywords = Array.from({ length: 2_001 }, (_, i) => `kw ${i}`);
    // A roomy timeout: a slow answer here would be retried and counted as an extra call.
    const patient = new GoogleAdsKeywordData(fake.config(), { ...FAST_RETRY, timeoutMs: 10_000 });
    const figures = await patient.searchVolumes(US_EN, keywords);
    expect(fake.adsRequests.map((r) => (r.body as { keywords: string[] }).keywords.length)).toEqual([1_000, 1_000, 1]);
    expect(figures).toHaveLength(2_001);
  });

  it('a language Google Ads does not target fails before any call', async () => {
    const error = await failureOf(client.searchVolumes({ geoCode: 'ZA', langCode: 'xh' }, ['a']));
    expect(error.failure).toBe('upstream_error');
    expect(fake.requests).toHaveLength(0);
  });

  it('retries 5xx and 429, then succeeds; a lasting 5xx is upstream_error after three tries', async () => {
    await client.searchVolumes(US_EN, ['warm up']);
    fake.failNext(FAIL.serverError(503));
    fake.failNext(FAIL.quotaExceeded());
    expect(await client.searchVolumes(US_EN, ['a'])).toHaveLength(1);
    expect(fake.adsRequests).toHaveLength(4);
    fake.failWith(FAIL.serverError(500));
    const before = fake.requests.length;
    expect((await failureOf(client.searchVolumes(US_EN, ['a']))).failure).toBe('upstream_error');
    expect(fake.requests.length - before).toBe(3);
  });

  it('a malformed body is upstream_error', async () => {
    await client.searchVolumes(US_EN, ['warm up']);
    fake.failWith(FAIL.malformed());
    const error = await failureOf(client.searchVolumes(US_EN, ['a']));
    expect(error.failure).toBe('upstream_error');
    expect(error.kind).toBe('malformed');
  });

  it('timeouts and resets are unavailable', async () => {
    await client.searchVolumes(US_EN, ['warm up']);
    fake.failWith(FAIL.slow(3_000, { kind: 'json', body: {} }));
    expect((await failureOf(client.searchVolumes(US_EN, ['a']))).failure).toBe('unavailable');
    fake.failWith(FAIL.reset());
    expect((await failureOf(client.searchVolumes(US_EN, ['a']))).failure).toBe('unavailable');
  });

  it('a caller that stops waiting cuts the ideas call off at once, and no retry starts after it', async () => {
    await client.searchVolumes(US_EN, ['warm up']);
    fake.failWith(FAIL.slow(3_000, FAIL.serverError(503)));
    const before = fake.adsRequests.length;
    const cancel = new AbortController();
    setTimeout(() => cancel.abort(), 150);
    const started = Date.now();
    const error = await failureOf(client.ideasForSite(US_EN, 'example.com', { signal: cancel.signal }));
    expect(error.message).toContain('the caller stopped waiting');
    expect(Date.now() - started).toBeLessThan(900);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(fake.adsRequests.length - before).toBe(1);
  });

  it('a caller that stops waiting is not held by a stuck OAuth token exchange, which goes on for the next caller', async () => {
    // A fresh client has no token yet: its first request is the exchange, which stalls here.
    fake.failNext(FAIL.slow(600, FAIL.serverError(503)));
    const cancel = new AbortController();
    setTimeout(() => cancel.abort(), 150);
    const started = Date.now();
    const error = await failureOf(client.ideasForSite(US_EN, 'example.com', { signal: cancel.signal }));
    expect(error.message).toContain('the OAuth token exchange was cut off: the caller stopped waiting');
    expect(error.failure).toBe('unavailable');
    expect(Date.now() - started).toBeLessThan(500);
    expect(fake.tokenRequests).toHaveLength(1);
    expect(fake.adsRequests).toHaveLength(0);
    // The exchange was not cancelled: a caller that keeps waiting shares it, sees its 503 and retries.
    const ideas = await client.ideasForSite(US_EN, 'example.com');
    expect(Date.now() - started).toBeGreaterThanOrEqual(550); // it waited for the stalled exchange, not a new one
    expect(fake.tokenRequests).toHaveLength(2);
    expect(ideas.map((i) => i.keyword)).toContain('example near me');
    expect(fake.adsRequests).toHaveLength(1);
  });

  it('ideas from seeds (keywordSeed, pageSize = limit) and from a site (siteSeed)', async () => {
    const fromSeeds = await client.ideasForKeywords(US_EN, ['coffee'], { limit: 2 });
    expect(fake.adsRequests[0].path).toBe(keywordIdeasPath(CREDS.customerId));
    expect(fake.adsRequests[0].body).toMatchObject({ keywordSeed: { keywords: ['coffee'] }, pageSize: 2, includeAdultKeywords: false });
    expect(fromSeeds.map((i) => i.keyword)).toEqual(['coffee', 'coffee near me']);
    const fromSite = await client.ideasForSite(US_EN, 'example.com');
    expect(fake.adsRequests[1].body).toMatchObject({ siteSeed: { site: 'example.com' } });
    expect(fromSite.map((i) => i.keyword)).toEqual(['example', 'example near me', 'best example']);
    expect(fromSite[0].history).toHaveLength(12);
    expect(historicalMetricsPath('1')).toBe('/v26/customers/1:generateKeywordHistoricalMetrics');
  });
});
