import { FakeJsonApi, type FakeAnswer, type SeenRequest } from '../../testing/fake-json-api';

/** What Google's lab and CrUX know about one page, in PageSpeed Insights' own units. */
export interface FakePsiPage {
  /** Category scores 0–1 (null: Lighthouse could not score it). */
  scores: { performance: number | null; accessibility: number | null; 'best-practices': number | null; seo: number | null };
  /** Audit numericValues: ms, CLS unitless. */
  lab: { lcpMs: number; fcpMs: number; tbtMs: number; cls: number };
  /** `loadingExperience` percentiles as PSI sends them: CLS ×100 (10 means 0.10). Absent: no field data. */
  field?: { lcpMs?: number; inpMs?: number; clsTimes100?: number };
}

/**
 * PageSpeed Insights API v5 on 127.0.0.1: `GET /runPagespeed` answers the documented
 * `pagespeedonline#result` (lighthouseResult.categories/audits, loadingExperience.metrics with
 * percentile/distributions/category). A page it does not know answers as Google does when
 * Lighthouse cannot load a page; a wrong key answers 400 INVALID_ARGUMENT.
 */
export class FakePageSpeedInsights {
  readonly pages = new Map<string, FakePsiPage>();

  private constructor(
    readonly api: FakeJsonApi,
    private readonly apiKey: string | undefined,
  ) {}

  static async start(apiKey?: string): Promise<FakePageSpeedInsights> {
    let fake: FakePageSpeedInsights | undefined;
    const api = await FakeJsonApi.start((request) => fake!.answer(request));
    fake = new FakePageSpeedInsights(api, apiKey);
    return fake;
  }

  /** The base URL as PAGESPEED_BASE_URL takes it. */
  get baseUrl(): string {
    return `${this.api.origin}/pagespeedonline/v5`;
  }

  close(): Promise<void> {
    return this.api.close();
  }

  private answer(request: SeenRequest): FakeAnswer {
    if (request.method !== 'GET' || request.path !== '/pagespeedonline/v5/runPagespeed') return googleError(404, 'NOT_FOUND', 'Not Found');
    if (this.apiKey !== undefined && request.query.get('key') !== this.apiKey) {
      return googleError(400, 'INVALID_ARGUMENT', 'API key not valid. Please pass a valid API key.');
    }
    const url = request.query.get('url');
    if (!url) return googleError(400, 'INVALID_ARGUMENT', 'Invalid value at \'url\' (TYPE_STRING), ""');
    const strategy = request.query.get('strategy');
    if (strategy !== null && !STRATEGIES.includes(strategy)) return invalidEnum('strategy', 'Strategy', strategy);
    const categories = request.query.getAll('category');
    const unknown = categories.findIndex((category) => !(category in LIGHTHOUSE_ID_OF));
    if (unknown !== -1) return invalidEnum(`category[${unknown}]`, 'Category', categories[unknown]!);
    const page = this.pages.get(url);
    if (!page) {
      return googleError(
        500,
        'INTERNAL',
        'Lighthouse returned error: FAILED_DOCUMENT_REQUEST. Lighthouse was unable to reliably load the page you requested.',
      );
    }
    return {
      kind: 'json',
      body: runPagespeedResult(
        url,
        categories.map((category) => LIGHTHOUSE_ID_OF[category]!),
        page,
      ),
    };
  }
}

/**
 * The documented values of runPagespeed's enums (its reference: `category` is one of
 * CATEGORY_UNSPECIFIED, ACCESSIBILITY, BEST_PRACTICES, PERFORMANCE, PWA, SEO; `strategy` one of
 * STRATEGY_UNSPECIFIED, DESKTOP, MOBILE), and the Lighthouse id each category is answered under.
 * Anything else is refused, so a client sending a spelling the reference does not list fails here
 * (`best-practices` is common in the wild, and undocumented). The fake scores only the four
 * categories the service asks for: it refuses PWA (gone from Lighthouse 12) and CATEGORY_UNSPECIFIED too.
 */
const LIGHTHOUSE_ID_OF: Record<string, keyof typeof CATEGORY_TITLES> = {
  PERFORMANCE: 'performance',
  ACCESSIBILITY: 'accessibility',
  BEST_PRACTICES: 'best-practices',
  SEO: 'seo',
};
const STRATEGIES = ['STRATEGY_UNSPECIFIED', 'DESKTOP', 'MOBILE'];

/**
 * A refusal of a value the enum does not have, in Google's error shape (400, `INVALID_ARGUMENT`).
 * The message's wording is ours: no document gives Google's for this case, and the client only
 * passes the message on.
 */
const invalidEnum = (field: string, type: string, value: string) =>
  googleError(400, 'INVALID_ARGUMENT', `Invalid value at '${field}' (${type}), "${value}"`);

function googleError(code: number, status: string, message: string): FakeAnswer {
  return {
    kind: 'json',
    status: code,
    body: { error: { code, message, errors: [{ message, domain: 'global', reason: 'badRequest' }], status } },
  };
}

const CATEGORY_TITLES = {
  performance: 'Performance',
  accessibility: 'Accessibility',
  'best-practices': 'Best Practices',
  seo: 'SEO',
} as const;

function runPagespeedResult(url: string, categories: (keyof typeof CATEGORY_TITLES)[], page: FakePsiPage): unknown {
  const audit = (id: string, title: string, numericValue: number, numericUnit: string) => ({
    id,
    title,
    score: 0.9,
    scoreDisplayMode: 'numeric',
    numericValue,
    numericUnit,
  });
  const wanted: (keyof typeof CATEGORY_TITLES)[] = categories.length > 0 ? categories : ['performance'];
  const result: Record<string, unknown> = {
    captchaResult: 'CAPTCHA_NOT_NEEDED',
    kind: 'pagespeedonline#result',
    id: url,
    loadingExperience: loadingExperience(url, page.field),
    lighthouseResult: {
      requestedUrl: url,
      finalUrl: url,
      mainDocumentUrl: url,
      finalDisplayedUrl: url,
      lighthouseVersion: '12.8.2',
      fetchTime: '2025-06-01T12:00:00.000Z',
      configSettings: { emulatedFormFactor: 'mobile', formFactor: 'mobile', locale: 'en-US', onlyCategories: wanted, channel: 'lr' },
      audits: {
        'first-contentful-paint': audit('first-contentful-paint', 'First Contentful Paint', page.lab.fcpMs, 'millisecond'),
        'largest-contentful-paint': audit('largest-contentful-paint', 'Largest Contentful Paint', page.lab.lcpMs, 'millisecond'),
        'total-blocking-time': audit('total-blocking-time', 'Total Blocking Time', page.lab.tbtMs, 'millisecond'),
        'cumulative-layout-shift': audit('cumulative-layout-shift', 'Cumulative Layout Shift', page.lab.cls, 'unitless'),
      },
      categories: Object.fromEntries(wanted.map((id) => [id, { id, title: CATEGORY_TITLES[id], score: page.scores[id], auditRefs: [] }])),
    },
    analysisUTCTimestamp: '2025-06-01T12:00:00.000Z',
    version: { major: 1, minor: 0 },
  };
  return result;
}

function loadingExperience(url: string, field: FakePsiPage['field']): unknown {
  // Without field data PSI still sends the object, with the URL and no metrics.
  if (!field) return { initial_url: url };
  const metric = (percentile: number, fast: number, slow: number) => ({
    percentile,
    distributions: [
      { min: 0, max: fast, proportion: 0.7 },
      { min: fast, max: slow, proportion: 0.2 },
      { min: slow, proportion: 0.1 },
    ],
    category: percentile <= fast ? 'FAST' : percentile <= slow ? 'AVERAGE' : 'SLOW',
  });
  const metrics: Record<string, unknown> = {};
  if (field.lcpMs !== undefined) metrics.LARGEST_CONTENTFUL_PAINT_MS = metric(field.lcpMs, 2500, 4000);
  if (field.inpMs !== undefined) metrics.INTERACTION_TO_NEXT_PAINT = metric(field.inpMs, 200, 500);
  if (field.clsTimes100 !== undefined) metrics.CUMULATIVE_LAYOUT_SHIFT_SCORE = metric(field.clsTimes100, 10, 25);
  metrics.FIRST_CONTENTFUL_PAINT_MS = metric(1500, 1800, 3000);
  return { id: url, metrics, overall_category: 'AVERAGE', initial_url: url };
}
