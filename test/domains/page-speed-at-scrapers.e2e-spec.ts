import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DomainDataReader } from '@rank/domains/reads/domain-data.reader';
import { PageSpeedMeasurerLifecycle } from '@rank/domains/measure/page-speed-measurer.module';
import { FakePageSpeedInsights } from '@rank/providers/pagespeed/testing/fake-pagespeed-insights';
import { startTestApp, TestApp } from '../support/test-app';
import { waitFor } from '@rank/platform/testing/wait-for';

/**
 * The distributed stack's page speed: with no PageSpeed Insights configured, the projector (no
 * Chromium) hands each measurement to the scrapers through the log, and a scraper records it in the
 * domain's stream. Two apps in this process share one event store: the projector side (api and
 * projections, no PAGESPEED_*) and a scraper. So that no real site is measured, the scraper here
 * answers from the fake PageSpeed Insights; the projector never measures.
 */
describe('page speed measured by the scrapers', () => {
  let dataDir: string;
  let projector: TestApp;
  let scraper: TestApp;
  let psi: FakePageSpeedInsights;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'rank-tracker-pagespeed-work-'));
    psi = await FakePageSpeedInsights.start();
    psi.pages.set('https://scraped.example/', {
      scores: { performance: 0.77, accessibility: 0.9, 'best-practices': 0.95, seo: 1 },
      lab: { lcpMs: 2100, fcpMs: 1000, tbtMs: 200, cls: 0.02 },
    });
    projector = await startTestApp({ dataDir, env: { ROLES: 'api,projections', PAGESPEED_BASE_URL: '' } });
    scraper = await startTestApp({
      dataDir,
      env: { ROLES: 'scraper', PAGESPEED_BASE_URL: psi.baseUrl, GOOGLE_BASE_URL: 'http://127.0.0.1:9' },
    });
  });
  afterAll(async () => {
    await scraper?.close();
    await projector?.close();
    await psi?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("a new project's home page is asked of the scrapers, measured there, and read from the projector's read models", async () => {
    const { apiKey } = await projector.createAccount();
    const created = await projector.request('POST', '/api/projects', { key: apiKey, body: { name: 'Scraped', domain: 'scraped.example' } });
    expect(created.status).toBe(201);

    const reader = projector.running.app.get(DomainDataReader, { strict: false });
    await waitFor(
      () => reader.pageSpeedOfDomains(['scraped.example'], 'domain'),
      (rows) => rows.length > 0,
      20_000,
      200,
    );
    const events = await projector.running.stores.eventStore.readAll();
    const requests = events.filter((e) => e.type === 'PageSpeedMeasurementRequested');
    expect(requests).toHaveLength(1);
    expect(requests[0]!.streamName).toMatch(/^pagespeed-work-/);
    expect(requests[0]!.data).toMatchObject({ domain: 'scraped.example', url: 'https://scraped.example/', level: 'domain' });
    expect(psi.api.requests.map((r) => r.query.get('url'))).toEqual(['https://scraped.example/']);

    const answer = await projector.request('GET', '/api/projects/pagespeed', { key: apiKey, query: { domain: 'scraped.example' } });
    expect(answer.body.data).toMatchObject({ domain: 'scraped.example', performanceScore: 77, source: 'psi', cruxFieldData: null });
    await scraper.running.app.get(PageSpeedMeasurerLifecycle, { strict: false }).current!.idle();
  });
});
