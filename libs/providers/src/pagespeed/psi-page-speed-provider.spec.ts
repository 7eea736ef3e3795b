import { FAILURES } from '../testing/fake-json-api';
import { UpstreamError } from '../shared/upstream-error';
import { PsiPageSpeedProvider } from './psi-page-speed-provider';
import { FakePageSpeedInsights, type FakePsiPage } from './testing/fake-pagespeed-insights';

const PAGE = 'https://www.example.com/';
const KEY = 'test-psi-key-0123456789';

const measured: FakePsiPage = {
  scores: { performance: 0.874, accessibility: 0.92, 'best-practices': 1, seo: 0.455 },
  lab: { lcpMs: 2345.67, fcpMs: 1201.2, tbtMs: 180.4, cls: 0.0412 },
  field: { lcpMs: 2100, inpMs: 250, clsTimes100: 10 },
};

describe('PsiPageSpeedProvider against a fake PageSpeed Insights API', () => {
  let psi: FakePageSpeedInsights;
  let provider: PsiPageSpeedProvider;

  beforeAll(async () => {
    psi = await FakePageSpeedInsights.start(KEY);
    provider = new PsiPageSpeedProvider({ baseUrl: psi.baseUrl, apiKey: KEY, timeoutMs: 1_000 });
  });
  afterAll(() => psi.close());
  beforeEach(() => {
    psi.pages.clear();
    psi.api.failWith(undefined);
    psi.api.requests.length = 0;
  });

  it('asks runPagespeed for the mobile strategy and the four categories by their documented enum names, with the key', async () => {
    psi.pages.set(PAGE, measured);
    await provider.measure(PAGE);
    const [request] = psi.api.requests;
    expect(request.path).toBe('/pagespeedonline/v5/runPagespeed');
    expect(request.query.get('url')).toBe(PAGE);
    // Before: mobile and performance, accessibility, best-practices, seo, which the reference does not list.
    expect(request.query.get('strategy')).toBe('MOBILE');
    expect(request.query.getAll('category')).toEqual(['PERFORMANCE', 'ACCESSIBILITY', 'BEST_PRACTICES', 'SEO']);
    expect(request.query.get('key')).toBe(KEY);
  });

  it('turns 0–1 scores into 0–100, keeps lab ms, and divides the field CLS percentile by 100', async () => {
    psi.pages.set(PAGE, measured);
    expect(await provider.measure(PAGE)).toEqual({
      url: PAGE,
      source: 'psi',
      performanceScore: 87,
      accessibilityScore: 92,
      bestPracticesScore: 100,
      seoScore: 46,
      largestContentfulPaint: 2346,
      firstContentfulPaint: 1201,
      totalBlockingTime: 180,
      cumulativeLayoutShift: 0.041,
      // PSI sent CLS as 10: that is 0.10, which is good (≤ 0.1).
      cruxFieldData: { LCP: { p75: 2100 }, CLS: { p75: 0.1 }, INP: { p75: 250 } },
      // LCP good, CLS good, INP poor: 2 of 3.
      cruxScore: 67,
    });
  });

  it('counts a CLS of 26 (0.26) as poor and leaves an unmeasured vital out of cruxScore', async () => {
    psi.pages.set(PAGE, { ...measured, field: { lcpMs: 2000, clsTimes100: 26 } });
    const record = await provider.measure(PAGE);
    expect(record.cruxFieldData).toEqual({ LCP: { p75: 2000 }, CLS: { p75: 0.26 }, INP: { p75: null } });
    expect(record.cruxScore).toBe(50);
  });

  it('gives cruxFieldData and cruxScore null when CrUX has no field data for the page', async () => {
    psi.pages.set(PAGE, { ...measured, field: undefined });
    const record = await provider.measure(PAGE);
    expect(record.cruxFieldData).toBeNull();
    expect(record.cruxScore).toBeNull();
    expect(record.performanceScore).toBe(87);
  });

  it('keeps a category Lighthouse could not score as null', async () => {
    psi.pages.set(PAGE, { ...measured, scores: { ...measured.scores, seo: null } });
    expect((await provider.measure(PAGE)).seoScore).toBeNull();
  });

  it('reports a page Google could not load as a page failure', async () => {
    await expect(provider.measure('https://unknown.example/')).rejects.toMatchObject({
      provider: 'pagespeed-insights',
      kind: 'page',
      status: 500,
    });
  });

  it("reports a rejected key as an HTTP failure with Google's message, without the key", async () => {
    const wrongKey = new PsiPageSpeedProvider({ baseUrl: psi.baseUrl, apiKey: 'not-the-key', timeoutMs: 1_000 });
    const failure = (await wrongKey.measure(PAGE).catch((error: unknown) => error)) as UpstreamError;
    expect(failure).toMatchObject({ kind: 'http', status: 400 });
    expect(failure.message).toMatch(/API key not valid/);
    expect(failure.message).not.toMatch(/not-the-key/);
  });

  it.each([
    ['a 503', FAILURES.serverError(503), 'http'],
    ['an HTML 502 from a proxy', FAILURES.htmlPage(502), 'http'],
    ['a truncated JSON body', FAILURES.malformed(), 'malformed'],
    ['a 200 without a Lighthouse result', { kind: 'json' as const, body: { kind: 'pagespeedonline#result', id: PAGE } }, 'malformed'],
    [
      'a score outside 0–1',
      { kind: 'json' as const, body: { lighthouseResult: { categories: { performance: { score: 87 } }, audits: {} } } },
      'malformed',
    ],
    ['a reset connection', FAILURES.reset(), 'unreachable'],
    ['an answer later than the timeout', FAILURES.slow(3_000, { kind: 'json' as const, body: {} }), 'timeout'],
  ])('turns %s into an UpstreamError', async (_what, failure, kind) => {
    psi.pages.set(PAGE, measured);
    psi.api.failWith(failure);
    const error = await provider.measure(PAGE).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UpstreamError);
    expect(error).toMatchObject({ provider: 'pagespeed-insights', kind });
  });
});
