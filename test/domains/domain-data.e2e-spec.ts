import { DomainDataReader } from '@rank/domains/reads/domain-data.reader';
import { ProjectionRunner } from '@rank/projector/projection-runner';
import { FakeCruxHistory, FakeCruxPeriod } from '@rank/providers/crux/testing/fake-crux-history';
import { FakePageSpeedInsights, FakePsiPage } from '@rank/providers/pagespeed/testing/fake-pagespeed-insights';
import { FakeSimilarweb } from '@rank/providers/similarweb/testing/fake-similarweb';
import { FAILURES } from '@rank/providers/testing/fake-json-api';
import { seedChecks } from '../support/seed-checks';
import { OpenApiConformance, RecordedAnswer, recordAnswers } from '../support/openapi-conformance';
import { startTestApp, TestApp } from '../support/test-app';
import { waitFor } from '@rank/platform/testing/wait-for';

/**
 * The domain endpoints over HTTP with the providers played by local fakes in their documented
 * formats, configured through the clarifications' variables. The clock is the test's: the last 12
 * complete months before 15 March 2026 are 2025-03 … 2026-02.
 */
const START = Date.parse('2026-03-15T12:00:00.000Z');
const DAY = 24 * 3600 * 1000;
let nowMs = START;
const clock = { now: () => new Date(nowMs) };

const MONTHS = Array.from({ length: 12 }, (_, i) => {
  const d = new Date(Date.UTC(2025, 2 + i, 1));
  return `${d.getUTCFullYear()}-${String(d.getUTCMonth() + 1).padStart(2, '0')}`;
});

/** A site whose every month has `visits` (so its totalVisits is 12 × visits). */
const site = (visits: number, bounceRate = 0.4, avgVisitDuration = 120) =>
  MONTHS.map((month) => ({ month, visits, bounceRate, avgVisitDuration }));

const fastPage: FakePsiPage = {
  scores: { performance: 0.91, accessibility: 0.88, 'best-practices': 1, seo: 0.92 },
  lab: { lcpMs: 1800, fcpMs: 900, tbtMs: 120, cls: 0.04 },
  // CLS arrives ×100 from PageSpeed Insights: 12 is 0.12 (not good); LCP good, INP not good: 1 of 3 good.
  field: { lcpMs: 2300, inpMs: 250, clsTimes100: 12 },
};
const labOnlyPage: FakePsiPage = {
  scores: { performance: 0.5, accessibility: 0.7, 'best-practices': 0.8, seo: 0.9 },
  lab: { lcpMs: 4000, fcpMs: 2000, tbtMs: 600, cls: 0.3 },
};
const cruxPeriods: FakeCruxPeriod[] = [
  { lastDate: '2026-02-21', lcpMs: 2600, cls: '0.15', inpMs: 210 },
  { lastDate: '2026-02-28', lcpMs: 2400, cls: '0.08', inpMs: 190 },
];

describe('domain data endpoints', () => {
  let app: TestApp;
  let similarweb: FakeSimilarweb;
  let crux: FakeCruxHistory;
  let psi: FakePageSpeedInsights;
  let key: string;
  /** Every answer of the run, checked against the served OpenAPI document at the end. */
  let answers: RecordedAnswer[];

  const similarwebAsked = (domain: string) => similarweb.api.requests.filter((r) => r.path.startsWith(`/v1/website/${domain}/`)).length;
  const psiAsked = (url: string) => psi.api.requests.filter((r) => r.query.get('url') === url).length;
  const caughtUp = () => app.running.app.get(ProjectionRunner).waitUntilCaughtUp();
  /** Background work is awaited in the read models, not over HTTP: polling would spend the account's domain-read budget. */
  const stored = () => app.running.app.get(DomainDataReader, { strict: false });
  const waitUntilStored = (probe: (reader: DomainDataReader) => Promise<unknown[]>) =>
    waitFor(
      () => probe(stored()),
      (rows) => rows.length > 0,
      20_000,
      200,
    );
  const get = (path: string, query: Record<string, string | string[]>, as = key) => app.request('GET', path, { key: as, query });
  const trafficCheck = (domain: string, as = key) => app.request('POST', '/api/tools/traffic-check', { key: as, body: { domain } });

  beforeAll(async () => {
    [similarweb, crux, psi] = await Promise.all([
      FakeSimilarweb.start('sw-key'),
      FakeCruxHistory.start('crux-key'),
      FakePageSpeedInsights.start('psi-key'),
    ]);
    app = await startTestApp({
      clock,
      env: {
        SIMILARWEB_API_KEY: 'sw-key',
        SIMILARWEB_BASE_URL: similarweb.baseUrl,
        CRUX_API_KEY: 'crux-key',
        CRUX_BASE_URL: crux.baseUrl,
        PAGESPEED_API_KEY: 'psi-key',
        PAGESPEED_BASE_URL: psi.baseUrl,
      },
    });
    answers = recordAnswers(app);
    key = (await app.createAccount()).apiKey;
  });
  afterAll(async () => {
    await app?.close();
    await Promise.all([similarweb?.close(), crux?.close(), psi?.close()]);
  });
  beforeEach(() => {
    similarweb.api.failWith(undefined);
    psi.api.failWith(undefined);
    crux.api.failWith(undefined);
  });

  describe('POST /api/tools/traffic-check', () => {
    it('normalises the domain, fetches traffic and page speed live on a miss, and answers from the cache after', async () => {
      similarweb.sites.set('shop.example', site(1000, 0.5, 90));
      psi.pages.set('https://shop.example/', fastPage);
      const first = await trafficCheck('https://www.Shop.example/some/path?x=1');
      expect(first.status).toBe(200);
      expect(first.body).toEqual({
        success: true,
        domain: 'shop.example',
        data: {
          stats: {
            domain: 'shop.example',
            totalVisits: 12_000,
            engagementMetrics: { bounceRate: 0.5, avgVisitDuration: 90 },
            fetchedAt: new Date(START).toISOString(),
          },
          monthlyVisits: MONTHS.map((month) => ({ domain: 'shop.example', month, visits: 1000 })),
        },
        pagespeed: {
          domain: 'shop.example',
          performanceScore: 91,
          cruxScore: 33,
          largestContentfulPaint: 1800,
          cumulativeLayoutShift: 0.04,
          fetchedAt: new Date(START).toISOString(),
        },
        remaining: 19,
      });
      expect(similarwebAsked('shop.example')).toBe(3);
      expect(psiAsked('https://shop.example/')).toBe(1);

      await caughtUp();
      nowMs = START + 29 * DAY;
      const cached = await trafficCheck('shop.example');
      expect(cached.body.data).toEqual(first.body.data);
      expect(cached.body.pagespeed).toEqual(first.body.pagespeed);
      expect(similarwebAsked('shop.example')).toBe(3);
      expect(psiAsked('https://shop.example/')).toBe(1);
    });

    it('fetches again once the cache is 30 days old', async () => {
      nowMs = START + 30 * DAY;
      similarweb.sites.set('shop.example', site(2000));
      const stale = await trafficCheck('shop.example');
      expect(stale.body.data.stats.fetchedAt).toBe(new Date(nowMs).toISOString());
      expect(similarwebAsked('shop.example')).toBe(6);
      expect(psiAsked('https://shop.example/')).toBe(2);
      nowMs = START;
    });

    it('answers the stale record, with its own fetchedAt, when its refresh fails', async () => {
      similarweb.sites.set('aging.example', site(700));
      psi.pages.set('https://aging.example/', fastPage);
      const first = await trafficCheck('aging.example');
      expect(first.body.data.stats.totalVisits).toBe(8_400);
      await caughtUp();

      nowMs = START + 31 * DAY;
      similarweb.api.failWith(FAILURES.serverError(500));
      psi.api.failWith(FAILURES.serverError(500));
      const asked = similarwebAsked('aging.example');
      const refreshed = await trafficCheck('aging.example');
      nowMs = START;
      // The refresh was tried; before, the failure answered data: null and pagespeed: null beside a stored record.
      expect(similarwebAsked('aging.example')).toBeGreaterThan(asked);
      expect(refreshed.body.data).toEqual(first.body.data);
      expect(refreshed.body.pagespeed).toEqual(first.body.pagespeed);

      // When the provider answers that it has no data any more, that answer is the news: data is null.
      similarweb.api.failWith(undefined);
      similarweb.sites.delete('aging.example');
      nowMs = START + 31 * DAY;
      const gone = await trafficCheck('aging.example');
      nowMs = START;
      expect(gone.body.data).toBeNull();
      await caughtUp();
    });

    it('answers data: null and pagespeed: null when the providers fail, and caches nothing of the failure', async () => {
      similarweb.sites.set('flaky.example', site(500));
      psi.pages.set('https://flaky.example/', fastPage);
      similarweb.api.failWith(FAILURES.serverError(503));
      psi.api.failWith(FAILURES.malformed());
      const failed = await trafficCheck('flaky.example');
      expect(failed.status).toBe(200);
      expect(failed.body).toMatchObject({ success: true, domain: 'flaky.example', data: null, pagespeed: null });

      await caughtUp();
      expect((await get('/api/projects/webtraffic', { domain: 'flaky.example' })).body).toEqual({
        success: true,
        exists: false,
        data: null,
      });
      expect((await get('/api/projects/pagespeed', { domain: 'flaky.example' })).body).toEqual({ success: true, data: null });

      similarweb.api.failWith(undefined);
      psi.api.failWith(undefined);
      const healed = await trafficCheck('flaky.example');
      expect(healed.body.data.stats.totalVisits).toBe(6000);
      expect(healed.body.pagespeed.performanceScore).toBe(91);
      await caughtUp();
    });

    it('answers data: null for a domain the traffic provider does not know', async () => {
      const unknown = await trafficCheck('nobody-knows.example');
      expect(unknown.status).toBe(200);
      expect(unknown.body).toMatchObject({ data: null, pagespeed: null });
    });

    it('refuses a missing or malformed domain with a 400 naming it', async () => {
      // Nor an address of the service's own network: the page would be loaded by our Lighthouse.
      for (const body of [
        {},
        { domain: '' },
        { domain: 'not a domain!' },
        { domain: 42 },
        { domain: 'localhost' },
        { domain: 'http://10.0.0.5/' },
        { domain: 'intranet.corp' },
      ]) {
        const refused = await app.request('POST', '/api/tools/traffic-check', { key, body });
        expect(refused.status).toBe(400);
        expect(refused.body.message).toMatch(/^domain /);
      }
    });
  });

  describe('cached reads', () => {
    it("GET /api/projects/pagespeed gives the full record with field data in the spec's units, or data: null", async () => {
      const { status, body } = await get('/api/projects/pagespeed', { domain: 'WWW.shop.example' });
      expect(status).toBe(200);
      expect(body).toEqual({
        success: true,
        data: {
          domain: 'shop.example',
          performanceScore: 91,
          accessibilityScore: 88,
          bestPracticesScore: 100,
          seoScore: 92,
          cruxScore: 33,
          largestContentfulPaint: 1800,
          firstContentfulPaint: 900,
          cumulativeLayoutShift: 0.04,
          totalBlockingTime: 120,
          cruxFieldData: { LCP: { p75: 2300 }, CLS: { p75: 0.12 }, INP: { p75: 250 } },
          source: 'psi',
          fetchedAt: expect.any(String),
        },
      });
      expect((await get('/api/projects/pagespeed', { domain: 'never-seen.example' })).body).toEqual({ success: true, data: null });
    });

    it('GET /api/projects/webtraffic: exists with at most 12 months oldest first, or exists: false', async () => {
      const { body } = await get('/api/projects/webtraffic', { domain: 'flaky.example' });
      expect(body).toEqual({
        success: true,
        exists: true,
        data: {
          stats: { domain: 'flaky.example', totalVisits: 6000, fetchedAt: new Date(START).toISOString() },
          monthlyVisits: MONTHS.map((month) => ({ domain: 'flaky.example', month, visits: 500 })),
        },
      });
      expect((await get('/api/projects/webtraffic', { domain: 'never-fetched.example' })).body).toEqual({
        success: true,
        exists: false,
        data: null,
      });
    });

    it('needs an API key', async () => {
      for (const path of ['/api/projects/webtraffic', '/api/projects/pagespeed', '/api/projects/crux-history']) {
        expect((await app.request('GET', path, { query: { domain: 'shop.example' } })).status).toBe(401);
      }
    });
  });

  describe('background work of a project', () => {
    let projectId: string;
    /** Monthly visits; brand.example has 1,000 a month. */
    const monthly: Record<string, number> = {
      'a5.example': 20_000,
      'a1.example': 9000,
      'a2.example': 5000,
      'a3.example': 3000,
      'a4.example': 2000,
      'b1.example': 900,
      'b2.example': 800,
      'b3.example': 100,
      'b4.example': 50,
    };

    it("on creation fetches the domain's traffic, home-page speed and origin CrUX history, off the request path", async () => {
      similarweb.sites.set('brand.example', site(1000));
      psi.pages.set('https://brand.example/', labOnlyPage);
      crux.records.set('origin:https://brand.example', cruxPeriods);
      const created = await app.request('POST', '/api/projects', { key, body: { name: 'Brand', domain: 'brand.example' } });
      expect(created.status).toBe(201);
      projectId = created.body.project._id;

      await waitUntilStored((r) => r.traffic(['brand.example']));
      await waitUntilStored((r) => r.pageSpeedOfDomains(['brand.example'], 'domain'));
      await waitUntilStored((r) => r.cruxHistory('brand.example'));
      const traffic = await get('/api/projects/webtraffic', { domain: 'brand.example' });
      expect(traffic.body.data.stats.totalVisits).toBe(12_000);
      const speed = await get('/api/projects/pagespeed', { domain: 'brand.example' });
      // Without field data: no cruxFieldData, no cruxScore.
      expect(speed.body.data).toMatchObject({ performanceScore: 50, cruxScore: null, cruxFieldData: null, cumulativeLayoutShift: 0.3 });
      const history = await get('/api/projects/crux-history', { domain: 'brand.example' });
      expect(history.body).toEqual({
        success: true,
        data: [
          { domain: 'brand.example', date: '2026-02-21', lcp: { p75: 2600 }, cls: { p75: 0.15 } },
          { domain: 'brand.example', date: '2026-02-28', lcp: { p75: 2400 }, cls: { p75: 0.08 } },
        ],
        pages: [],
      });
    });

    it("on competitor changes fetches each competitor's traffic", async () => {
      for (const [domain, visits] of Object.entries(monthly)) similarweb.sites.set(domain, site(visits));
      const updated = await app.request('PUT', '/api/projects', {
        key,
        body: { _id: projectId, name: 'Brand', domain: 'brand.example', competitors: Object.keys(monthly) },
      });
      expect(updated.status).toBe(200);
      await waitFor(
        () => stored().traffic(Object.keys(monthly)),
        (rows) => rows.length === Object.keys(monthly).length,
        20_000,
        200,
      );
    });

    it('GET /api/projects/competitors-filtered keeps the 3 smallest above and the 3 largest below the main domain', async () => {
      const asked = ['a1', 'a2', 'a3', 'a4', 'b1', 'b2', 'b3', 'b4', 'uncached'].map((d) => `${d}.example`);
      const { status, body } = await get('/api/projects/competitors-filtered', {
        domain: 'https://www.brand.example/',
        competitors: asked.join(', '),
      });
      expect(status).toBe(200);
      expect(body.success).toBe(true);
      expect(body.mainDomainVisits).toBe(12_000);
      expect(body.totalCompetitors).toBe(9);
      expect(body.filtered).toEqual(['a2.example', 'a3.example', 'a4.example', 'b1.example', 'b2.example', 'b3.example']);
      expect(Object.keys(body.data).sort()).toEqual([...body.filtered].sort());
      expect(body.data['a4.example']).toEqual({
        stats: { domain: 'a4.example', totalVisits: 24_000, fetchedAt: expect.any(String) },
        monthlyVisits: MONTHS.map((month) => ({ month, visits: 2000 })),
        pageSpeed: { cruxScore: null },
      });
    });

    it('takes more from the other side when one side has fewer than 3, and accepts a repeated parameter', async () => {
      const asked = ['a5', 'a1', 'a2', 'a3', 'a4', 'b1', 'b2'].map((d) => `${d}.example`);
      const { body } = await get('/api/projects/competitors-filtered', { domain: 'brand.example', competitors: asked });
      expect(body.filtered).toEqual(['a1.example', 'a2.example', 'a3.example', 'a4.example', 'b1.example', 'b2.example']);
      expect(body.totalCompetitors).toBe(7);
    });

    it('refuses more than 50 competitors, or none, with a 400', async () => {
      const many = Array.from({ length: 51 }, (_, i) => `c${i}.example`).join(',');
      const tooMany = await get('/api/projects/competitors-filtered', { domain: 'brand.example', competitors: many });
      expect(tooMany.status).toBe(400);
      expect(tooMany.body.message).toMatch(/competitors .*at most 50/);
      const none = await get('/api/projects/competitors-filtered', { domain: 'brand.example' });
      expect(none.status).toBe(400);
      expect(none.body.message).toMatch(/^competitors is required/);
    });

    it("measures the project's ranking pages after checks complete: pages-pagespeed and the pages' CrUX series", async () => {
      const added = await app.request('POST', '/api/projects/keywords', {
        key,
        body: { projectId, keywords: ['brand shoes'], geoCode: 'US', langCode: 'en' },
      });
      expect(added.status).toBe(200);
      const keywordId = added.body.project.keywords[0];
      const page = 'https://brand.example/shoes';
      psi.pages.set(page, fastPage);
      crux.records.set(`url:${page}`, cruxPeriods);
      await seedChecks(app.running.stores.eventStore, [
        {
          projectId,
          keywordId,
          at: new Date(START - 3600_000).toISOString(),
          urls: ['https://other.example/', page],
          projectDomains: ['brand.example'],
        },
      ]);

      await waitUntilStored((r) => r.pageSpeedOfUrls([page]));
      await waitFor(
        () => stored().cruxHistory('brand.example'),
        (rows) => rows.some((row) => row.url === page),
        20_000,
        200,
      );
      const measured = await get('/api/projects/pages-pagespeed', { projectId });
      expect(measured.status).toBe(200);
      expect(measured.body.pages[page]).toMatchObject({
        url: page,
        path: '/shoes',
        performanceScore: 91,
        largestContentfulPaint: 1800,
        source: 'psi',
      });
      // The home page does not rank: the domain's snapshot is the baseline.
      expect(measured.body.baseline).toMatchObject({ url: 'https://brand.example/', path: '/', performanceScore: 50, source: 'domain' });

      // Public only when the project is shared.
      expect((await app.request('GET', '/api/projects/pages-pagespeed', { query: { projectId } })).status).toBe(401);
      await app.request('PUT', '/api/projects', { key, body: { _id: projectId, name: 'Brand', domain: 'brand.example', shared: true } });
      const anonymous = await app.request('GET', '/api/projects/pages-pagespeed', { query: { projectId } });
      expect(anonymous.status).toBe(200);
      expect(anonymous.body).toEqual(measured.body);

      const history = await get('/api/projects/crux-history', { domain: 'brand.example' });
      expect(history.body.pages).toEqual([
        {
          url: page,
          path: '/shoes',
          data: [
            { date: '2026-02-21', lcp: { p75: 2600 } },
            { date: '2026-02-28', lcp: { p75: 2400 } },
          ],
        },
      ]);
    });

    it("fills the agent export's traffic, competitor and performance sections from the stored data", async () => {
      const report = await app.request('GET', '/api/projects/export-agent', { key, query: { projectId } });
      expect(report.status).toBe(200);
      expect(report.text).toContain(
        '## Traffic\n\nVisits to brand.example (worldwide, all devices, subdomains included), fetched 2026-03-15:\n\n' +
          '- Total over the last 12 month(s): 12,000\n- Engagement: bounce rate 40.0%, average visit 120 s\n\n| Month | Visits |\n|---|---:|\n| 2025-03 | 1,000 |\n',
      );
      expect(report.text).toContain(
        '| brand.example (this project) | 12,000 | 100% | 2026-03-15 |\n| a5.example | 240,000 | 2000% | 2026-03-15 |\n',
      );
      expect(report.text).toContain('### Home page (<https://brand.example/>, PageSpeed Insights, mobile, 2026-03-15)');
      expect(report.text).toContain('| Performance score | 50 |\n');
      expect(report.text).toContain('| Cumulative Layout Shift (lab) | 0.3 |\n');
      expect(report.text).toContain(
        'Chrome UX Report for the origin, period ending 2026-02-28: LCP p75 2,400 ms, INP p75 190 ms, CLS p75 0.08.',
      );
      expect(report.text).toContain('| <https://brand.example/shoes> | 91 | 1,800 ms | 0.04 | 120 ms | psi | 2026-03-15 |\n');
    });

    it("measures a ranking home page as a page too, and takes no subdomain's home page for the project's baseline", async () => {
      // The speed audit: the domain's snapshot stood for the home page's page-level measurement (so
      // pages-pagespeed left the ranking home page out), and https://blog.<domain>/ became the baseline.
      const home = 'https://homes.example/';
      const blog = 'https://blog.homes.example/';
      psi.pages.set(home, labOnlyPage);
      psi.pages.set(blog, fastPage);
      const created = await app.request('POST', '/api/projects', { key, body: { name: 'Homes', domain: 'homes.example' } });
      const homesId = created.body.project._id as string;
      await waitUntilStored((r) => r.pageSpeedOfDomains(['homes.example'], 'domain'));
      const added = await app.request('POST', '/api/projects/keywords', {
        key,
        body: { projectId: homesId, keywords: ['homes', 'homes blog'], geoCode: 'US', langCode: 'en' },
      });
      const [homeKeyword, blogKeyword] = added.body.project.keywords as string[];
      const at = new Date(START - 3600_000).toISOString();
      await seedChecks(app.running.stores.eventStore, [
        { projectId: homesId, keywordId: homeKeyword!, at, urls: [home], projectDomains: ['homes.example'] },
        { projectId: homesId, keywordId: blogKeyword!, at, urls: [blog], projectDomains: ['homes.example'] },
      ]);
      await waitFor(
        () => stored().pageSpeedOfUrls([home, blog]),
        (rows) => rows.length === 2,
        20_000,
        200,
      );
      const measured = await get('/api/projects/pages-pagespeed', { projectId: homesId });
      expect(measured.status).toBe(200);
      expect(Object.keys(measured.body.pages).sort()).toEqual([blog, home]);
      expect(measured.body.baseline).toMatchObject({ url: home, path: '/', performanceScore: 50, source: 'psi' });
    });
  });

  describe('background failures', () => {
    it('are recorded as events, never as data, and retried after the backoff', async () => {
      similarweb.sites.set('retry.example', site(70));
      psi.pages.set('https://retry.example/', labOnlyPage);
      psi.api.failWith(FAILURES.serverError(503));
      const created = await app.request('POST', '/api/projects', { key, body: { name: 'Retry', domain: 'retry.example' } });
      expect(created.status).toBe(201);
      const streamTypes = async () => (await app.running.stores.eventStore.readStream('domain-retry.example')).map((e) => e.type);
      await waitFor(streamTypes, (types) => types.includes('DomainDataFetchFailed'), 20_000, 200);
      await waitUntilStored((r) => r.traffic(['retry.example']));
      await caughtUp();
      expect((await get('/api/projects/pagespeed', { domain: 'retry.example' })).body.data).toBeNull();

      // Healed, but not yet due: the first retry waits a minute (on the service's clock).
      psi.api.failWith(undefined);
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      expect((await streamTypes()).filter((t) => t === 'DomainPageSpeedMeasured')).toEqual([]);
      nowMs = START + 61_000;
      await waitUntilStored((r) => r.pageSpeedOfDomains(['retry.example'], 'domain'));
      nowMs = START;
      const failure = (await app.running.stores.eventStore.readStream('domain-retry.example')).find(
        (e) => e.type === 'DomainDataFetchFailed',
      );
      expect(failure?.data).toMatchObject({
        domain: 'retry.example',
        kind: 'pagespeed',
        target: 'https://retry.example/',
        attempt: 1,
        origin: 'background',
      });
      expect((await get('/api/projects/pagespeed', { domain: 'retry.example' })).body.data).toMatchObject({ performanceScore: 50 });
    });

    it('a reset connection or an HTML error page gives data: null, never a 5xx', async () => {
      similarweb.sites.set('reset.example', site(10));
      similarweb.api.failWith(FAILURES.reset());
      psi.api.failWith(FAILURES.htmlPage(502));
      const answer = await trafficCheck('reset.example');
      expect(answer.status).toBe(200);
      expect(answer.body).toMatchObject({ data: null, pagespeed: null });
    });
  });

  describe('limits', () => {
    it('counts new domains across the five endpoints, refuses the 401st with 429 and fetches nothing for it', async () => {
      const { apiKey } = await app.createAccount();
      const capacity = async () =>
        (await app.request('GET', '/api/user/capacity', { key: apiKey })).body.limits.rateLimits.newDomainsPerDay;
      expect(await capacity()).toMatchObject({ limit: 400, used: 0, remaining: 400, resetsInSeconds: null });

      // A cached domain never counts.
      expect((await trafficCheck('shop.example', apiKey)).status).toBe(200);
      expect((await capacity()).used).toBe(0);

      // One main domain and 7 × 50 competitors, then 49 more: 400 distinct new domains.
      const batch = (n: number, size: number) => Array.from({ length: size }, (_, i) => `new${n}-${i}.example`).join(',');
      for (let n = 0; n < 7; n++) {
        const read = await get(
          '/api/projects/competitors-filtered',
          { domain: 'allowance-main.example', competitors: batch(n, 50) },
          apiKey,
        );
        expect(read.status).toBe(200);
      }
      expect(
        (await get('/api/projects/competitors-filtered', { domain: 'allowance-main.example', competitors: batch(7, 49) }, apiKey)).status,
      ).toBe(200);
      // Looked up again, by another endpoint: still counted once.
      expect((await get('/api/projects/webtraffic', { domain: 'new0-0.example' }, apiKey)).status).toBe(200);
      expect(await capacity()).toEqual({ limit: 400, used: 400, remaining: 0, resetsInSeconds: 86_400, appliesTo: expect.any(Array) });

      similarweb.sites.set('one-more.example', site(10));
      const refused = await trafficCheck('one-more.example', apiKey);
      expect(refused.status).toBe(429);
      expect(refused.body).toEqual({ success: false, message: expect.stringMatching(/400 new domains/), retryAfter: 86_400 });
      expect(refused.headers.get('retry-after')).toBe('86400');
      expect(similarwebAsked('one-more.example')).toBe(0);
      expect((await get('/api/projects/pagespeed', { domain: 'another-new.example' }, apiKey)).status).toBe(429);
      // Cached domains are still served.
      expect((await get('/api/projects/webtraffic', { domain: 'shop.example' }, apiKey)).status).toBe(200);

      // The window clears 24 h after the newest counted domain.
      nowMs = START + DAY;
      expect(await capacity()).toMatchObject({ used: 0, remaining: 400, resetsInSeconds: null });
      expect((await trafficCheck('one-more.example', apiKey)).body.data.stats.totalVisits).toBe(120);
      nowMs = START;
    });

    it('allows 60 domain reads a minute per account, then 429 with Retry-After', async () => {
      const { apiKey } = await app.createAccount();
      for (let i = 0; i < 60; i++) expect((await get('/api/projects/webtraffic', { domain: 'shop.example' }, apiKey)).status).toBe(200);
      const refused = await get('/api/projects/pagespeed', { domain: 'shop.example' }, apiKey);
      expect(refused.status).toBe(429);
      expect(refused.body.retryAfter).toBeGreaterThan(0);
      expect(refused.headers.get('retry-after')).toBe(String(refused.body.retryAfter));
      // Another account has its own bucket.
      expect((await get('/api/projects/webtraffic', { domain: 'shop.example' })).status).toBe(200);
    });

    it('allows 20 traffic checks per 60 s per account, counting down remaining', async () => {
      const { apiKey } = await app.createAccount();
      for (let i = 0; i < 20; i++) expect((await trafficCheck('shop.example', apiKey)).body.remaining).toBe(19 - i);
      const refused = await trafficCheck('shop.example', apiKey);
      expect(refused.status).toBe(429);
      expect(refused.headers.get('retry-after')).toBe(String(refused.body.retryAfter));
    });
  });
  // Last: it reads what every test above recorded.
  describe('the OpenAPI document', () => {
    it('describes every answer above (fields, types, nulls, errors)', async () => {
      const conformance = await OpenApiConformance.of(app);
      expect(conformance.problemsOfAnswers(answers)).toEqual([]);
      // Each read was seen with data, and the errors too.
      expect([...conformance.coverage]).toEqual(
        expect.arrayContaining([
          'GET /api/projects/competitors-filtered 200 application/json',
          'GET /api/projects/competitors-filtered 400 application/json',
          'GET /api/projects/crux-history 200 application/json',
          'GET /api/projects/pages-pagespeed 200 application/json',
          'GET /api/projects/pagespeed 200 application/json',
          'GET /api/projects/pagespeed 429 application/json',
          'GET /api/projects/webtraffic 200 application/json',
          'POST /api/tools/traffic-check 200 application/json',
          'POST /api/tools/traffic-check 429 application/json',
        ]),
      );
    });
  });
});

describe('A live answer slower than twice the request timeout', () => {
  it('still reaches the caller: the connection is not closed under it', async () => {
    const psi = await FakePageSpeedInsights.start();
    // PageSpeed Insights takes its time (a live Lighthouse run does), then fails.
    psi.api.failWith({ kind: 'delay', ms: 2_500, then: { kind: 'json', status: 500, body: { error: { code: 500, message: 'slow' } } } });
    const app = await startTestApp({ env: { HTTP_REQUEST_TIMEOUT_MS: '500', PAGESPEED_BASE_URL: psi.baseUrl } });
    try {
      const { apiKey } = await app.createAccount();
      const started = Date.now();
      // Before, the socket was closed after twice the request timeout idle (1 s here): no answer at all.
      const answer = await app.request('POST', '/api/tools/traffic-check', { key: apiKey, body: { domain: 'slow.example' } });
      expect(Date.now() - started).toBeGreaterThanOrEqual(2_500);
      expect(answer.status).toBe(200);
      expect(answer.body).toMatchObject({ success: true, domain: 'slow.example', pagespeed: null });
    } finally {
      await app.close();
      await psi.close();
    }
  }, 60_000);
});
