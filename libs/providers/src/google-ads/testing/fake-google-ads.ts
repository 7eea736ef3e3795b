import { FAILURES, FakeJsonApi, type FakeAnswer, type SeenRequest } from '../../testing/fake-json-api';
import { AnswerQueue } from '../../testing/answer-queue';
import { fakeFiguresFor } from '../../dataforseo/testing/fake-dataforseo-keywords';
import type { GoogleAdsConfig } from '../../keyword-data/keyword-data-config';
import { historicalMetricsPath, keywordIdeasPath } from '../keyword-planner.client';

export const FAKE_GOOGLE_ADS_CREDENTIALS = {
  developerToken: 'fake-developer-token',
  clientId: 'fake-client.apps.googleusercontent.com',
  clientSecret: 'fake-client-secret',
  refreshToken: 'fake-refresh-token',
  customerId: '1234567890',
} as const;

/** The path of the fake's OAuth token endpoint: GOOGLE_OAUTH_TOKEN_URL = url + this. */
export const FAKE_GOOGLE_TOKEN_PATH = '/token';

const MONTHS = ['JANUARY', 'FEBRUARY', 'MARCH', 'APRIL', 'MAY', 'JUNE', 'JULY', 'AUGUST', 'SEPTEMBER', 'OCTOBER', 'NOVEMBER', 'DECEMBER'];

/** Google's REST error body: `{error: {code, message, status, details}}`. */
export function googleAdsError(code: number, status: string, message: string): FakeAnswer {
  return {
    kind: 'json',
    status: code,
    body: {
      error: {
        code,
        message,
        status,
        details: [{ '@type': 'type.googleapis.com/google.ads.googleads.v26.errors.GoogleAdsFailure', errors: [{ message }] }],
      },
    },
  };
}

export const GOOGLE_ADS_FAILURES = {
  ...FAILURES,
  serverError: (code = 503) => googleAdsError(code, code === 503 ? 'UNAVAILABLE' : 'INTERNAL', 'The service is currently unavailable.'),
  quotaExceeded: () => googleAdsError(429, 'RESOURCE_EXHAUSTED', 'Too many requests. Retry in 30 seconds.'),
  malformed: (): FakeAnswer => ({ kind: 'text', status: 200, body: '{"results": [{"text": "x", ', contentType: 'application/json' }),
} as const;

/**
 * The Google Ads API's KeywordPlanIdeaService over REST, and Google's OAuth token endpoint, on
 * 127.0.0.1. The token endpoint takes a form-encoded refresh_token grant and answers
 * `{access_token, expires_in, scope, token_type: "Bearer"}` (400 `invalid_grant` for another
 * refresh token); the service wants `Authorization: Bearer` with a token it issued and not yet
 * expired (401 UNAUTHENTICATED otherwise) and the `developer-token` header, and answers results in
 * proto3 JSON (camelCase, int64 as strings, months as MonthOfYear names).
 */
export class FakeGoogleAds {
  /** Figures a test set for a text; others get the same deterministic figures as the DataForSEO fake. */
  readonly keywords = new Map<string, ReturnType<typeof fakeFiguresFor>>();
  /** Close variants Google merges: the asked text → the text it answers under. */
  readonly closeVariants = new Map<string, string>();
  ideas: string[] | undefined;
  /** Lifetime of the access tokens it issues, in seconds. */
  tokenLifetimeSeconds = 3_599;
  /** Access tokens issued, with their expiry (epoch ms). */
  readonly issued = new Map<string, number>();

  private constructor(
    readonly api: FakeJsonApi,
    private readonly queue: AnswerQueue,
  ) {}

  static async start(): Promise<FakeGoogleAds> {
    let fake: FakeGoogleAds | undefined;
    const queue = new AnswerQueue();
    const api = await FakeJsonApi.start(queue.route((request) => fake!.answer(request)));
    fake = new FakeGoogleAds(api, queue);
    return fake;
  }

  get url(): string {
    return this.api.origin;
  }

  get requests(): SeenRequest[] {
    return this.api.requests;
  }

  /** Calls to the token endpoint. */
  get tokenRequests(): SeenRequest[] {
    return this.api.requests.filter((r) => r.path === FAKE_GOOGLE_TOKEN_PATH);
  }

  /** Calls to the Ads API. */
  get adsRequests(): SeenRequest[] {
    return this.api.requests.filter((r) => r.path !== FAKE_GOOGLE_TOKEN_PATH);
  }

  /** The provider configuration pointing at this fake. */
  config(overrides: Partial<GoogleAdsConfig> = {}): GoogleAdsConfig {
    return {
      ...FAKE_GOOGLE_ADS_CREDENTIALS,
      loginCustomerId: undefined,
      baseUrl: this.url,
      tokenUrl: `${this.url}${FAKE_GOOGLE_TOKEN_PATH}`,
      ...overrides,
    };
  }

  failWith(answer: FakeAnswer | undefined): void {
    this.api.failWith(answer);
  }

  failNext(answer: FakeAnswer, times = 1): void {
    this.queue.failNext(answer, times);
  }

  /** Makes every issued token invalid, as a revocation would. */
  revokeTokens(): void {
    this.issued.clear();
  }

  reset(): void {
    this.keywords.clear();
    this.closeVariants.clear();
    this.ideas = undefined;
    this.tokenLifetimeSeconds = 3_599;
    this.issued.clear();
    this.queue.clear();
    this.api.failWith(undefined);
    this.api.requests.length = 0;
  }

  close(): Promise<void> {
    return this.api.close();
  }

  private answer(request: SeenRequest): FakeAnswer {
    if (request.path === FAKE_GOOGLE_TOKEN_PATH) return this.token(request);
    const bearer = /^Bearer (.+)$/.exec(String(request.headers.authorization ?? ''))?.[1];
    const expiry = bearer === undefined ? undefined : this.issued.get(bearer);
    if (expiry === undefined || expiry <= Date.now()) {
      return googleAdsError(401, 'UNAUTHENTICATED', 'Request had invalid authentication credentials. Expected OAuth 2 access token.');
    }
    if (request.headers['developer-token'] !== FAKE_GOOGLE_ADS_CREDENTIALS.developerToken)
      return googleAdsError(401, 'UNAUTHENTICATED', 'The developer token is not valid.');
    const body = (request.body ?? {}) as Record<string, unknown>;
    if (typeof body.language !== 'string' || !Array.isArray(body.geoTargetConstants))
      return googleAdsError(400, 'INVALID_ARGUMENT', 'Request contains an invalid argument.');
    const customer = FAKE_GOOGLE_ADS_CREDENTIALS.customerId;
    if (request.method === 'POST' && request.path === historicalMetricsPath(customer)) {
      const keywords = Array.isArray(body.keywords) ? (body.keywords as string[]) : [];
      if (keywords.length === 0 || keywords.length > 10_000)
        return googleAdsError(400, 'INVALID_ARGUMENT', 'Too many keywords in the request.');
      const merged = new Map<string, string[]>();
      for (const keyword of keywords) {
        const text = this.closeVariants.get(keyword) ?? keyword;
        merged.set(text, [...(merged.get(text) ?? []), keyword]);
      }
      const results = [...merged].map(([text, variants]) => ({
        text,
        ...(variants.some((v) => v !== text) ? { closeVariants: variants } : {}),
        keywordMetrics: this.metrics(text),
      }));
      return { kind: 'json', body: { results, aggregateMetricResults: {} } };
    }
    if (request.method === 'POST' && request.path === keywordIdeasPath(customer)) {
      const seed = asSeed(body);
      if (seed === undefined)
        return googleAdsError(400, 'INVALID_ARGUMENT', 'At least one of keyword seed, url seed or site seed is required.');
      const texts = this.ideas ?? [seed, `${seed} near me`, `best ${seed}`];
      const pageSize = typeof body.pageSize === 'number' ? body.pageSize : texts.length;
      const results = texts.slice(0, pageSize).map((text) => ({ text, keywordIdeaMetrics: this.metrics(text) }));
      return { kind: 'json', body: { results, totalSize: String(texts.length) } };
    }
    return googleAdsError(404, 'NOT_FOUND', 'Method not found.');
  }

  private token(request: SeenRequest): FakeAnswer {
    const form = new URLSearchParams(typeof request.body === 'string' ? request.body : '');
    const ok =
      request.headers['content-type'] === 'application/x-www-form-urlencoded' &&
      form.get('grant_type') === 'refresh_token' &&
      form.get('client_id') === FAKE_GOOGLE_ADS_CREDENTIALS.clientId &&
      form.get('client_secret') === FAKE_GOOGLE_ADS_CREDENTIALS.clientSecret &&
      form.get('refresh_token') === FAKE_GOOGLE_ADS_CREDENTIALS.refreshToken;
    if (!ok) return { kind: 'json', status: 400, body: { error: 'invalid_grant', error_description: 'Bad Request' } };
    const token = `ya29.fake-${this.issued.size + 1}-${Date.now()}`;
    this.issued.set(token, Date.now() + this.tokenLifetimeSeconds * 1_000);
    return {
      kind: 'json',
      body: {
        access_token: token,
        expires_in: this.tokenLifetimeSeconds,
        scope: 'https://www.googleapis.com/auth/adwords',
        token_type: 'Bearer',
      },
    };
  }

  private metrics(text: string): Record<string, unknown> {
    const figures = this.keywords.get(text) ?? fakeFiguresFor(text);
    const micros = (usd: number | null) => (usd === null ? undefined : String(Math.round(usd * 1_000_000)));
    return {
      ...(figures.avgMonthlySearches === null ? {} : { avgMonthlySearches: String(figures.avgMonthlySearches) }),
      competition: figures.competition ?? 'UNSPECIFIED',
      ...(figures.competitionIndex === null ? {} : { competitionIndex: String(figures.competitionIndex) }),
      lowTopOfPageBidMicros: micros(figures.cpcLow),
      highTopOfPageBidMicros: micros(figures.cpcHigh),
      monthlySearchVolumes: figures.history.map((m) => ({
        month: MONTHS[m.month - 1],
        year: String(m.year),
        monthlySearches: String(m.value),
      })),
    };
  }
}

function asSeed(body: Record<string, unknown>): string | undefined {
  const keywords = (body.keywordSeed as { keywords?: unknown } | undefined)?.keywords;
  if (Array.isArray(keywords) && typeof keywords[0] === 'string') return keywords[0];
  const site = (body.siteSeed as { site?: unknown } | undefined)?.site;
  return typeof site === 'string' ? site.split('.')[0] : undefined;
}

/** Starts the fake; point GOOGLE_ADS_BASE_URL at `url` and GOOGLE_OAUTH_TOKEN_URL at `url + /token`. */
export function startGoogleAdsFake(): Promise<FakeGoogleAds> {
  return FakeGoogleAds.start();
}
