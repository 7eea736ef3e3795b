import { chromiumBrowsersOf, crashChromium, isRunning } from '@rank/serp/browser/testing/chromium-processes';
import { FakeGoogle } from '@rank/serp/fetcher/test-support/fake-google';
import { readSavedSerp } from '@rank/serp/fetcher/test-support/saved-serp';
import { waitFor } from '@rank/platform/testing/wait-for';
import { CheckWorkerLifecycle } from '@rank/tracking/check/check-worker.lifecycle';
import { checkResultsOf } from '../support/seed-checks';
import { startTestApp } from '../support/test-app';

describe('A scraper whose Chromium crashes', () => {
  it('launches another with the next check, which completes; /ready and /metrics count the relaunch', async () => {
    const google = await FakeGoogle.start();
    google.reset(() => ({ kind: 'page', html: readSavedSerp('fra50__persistent_browser_service__ai_overview.html') }));
    const app = await startTestApp({ env: { ROLES: 'api,projections,scraper', GOOGLE_BASE_URL: google.baseUrl } });
    try {
      const { apiKey: key } = await app.createAccount({ balance: 10 });
      const project = await app.request('POST', '/api/projects', { key, body: { name: 'Eggs', domain: 'simplyrecipes.com' } });
      const projectId = project.body.project._id as string;
      const check = async (keyword: string): Promise<void> => {
        const added = await app.request('POST', '/api/projects/keywords', {
          key,
          body: { projectId, keywords: [keyword], geoCode: 'US', langCode: 'en' },
        });
        const keywordIds = (added.body.project.keywords as string[]).slice(-1);
        expect((await app.request('POST', '/api/scrape/new-keywords', { key, body: { projectId, keywordIds } })).status).toBe(200);
      };

      // Given one check done on a browser
      await check('how to boil eggs');
      await waitFor(
        () => checkResultsOf(app.running.stores.eventStore, projectId),
        (events) => events.length === 1,
      );
      await app.running.app.get(CheckWorkerLifecycle).current!.idle();
      const [first] = chromiumBrowsersOf();
      expect(first).toBeDefined();

      // when Chromium is killed, as the machine's out-of-memory killer would
      crashChromium(first!);
      await waitFor(
        async () => isRunning(first!),
        (running) => !running,
      );
      const gone = await waitFor(
        () => app.request('GET', '/ready'),
        (answer) => answer.body.parts.browser.launched === false,
      );
      // then the scraper stays ready (the next check launches another browser)
      expect(gone.status).toBe(200);
      expect(gone.body.parts.browser).toMatchObject({ ok: true, launched: false });

      // and the next check completes on a new browser, not failing as "browser unavailable"
      await check('soft boiled eggs');
      const results = await waitFor(
        () => checkResultsOf(app.running.stores.eventStore, projectId),
        (events) => events.length === 2,
      );
      expect(results.map((event) => event.type)).toEqual(['CheckCompleted', 'CheckCompleted']);
      const ready = await app.request('GET', '/ready');
      expect(ready.body.parts.browser).toMatchObject({ ok: true, launched: true, relaunches: 1 });
      const metrics = (await app.request('GET', '/metrics')).text;
      expect(metrics).toContain('rank_browser_launches_total{outcome="started",relaunch="false"} 1');
      expect(metrics).toContain('rank_browser_launches_total{outcome="started",relaunch="true"} 1');
      expect(metrics).not.toContain('rank_browser_launches_total{outcome="failed"');
      const now = chromiumBrowsersOf();
      expect(now).toHaveLength(1);
      expect(now[0]).not.toBe(first);
    } finally {
      await app.close();
      await google.close();
    }
  }, 90_000);
});
