import { FIRST_REST_MS } from '@rank/serp/browser/relaunching-browser';
import { chromiumBrowsersOf, crashChromium, stillRunningAfterWait } from '@rank/serp/browser/testing/chromium-processes';
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
      await stillRunningAfterWait(first!);
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

  it('that dies before loading a page again and again: launches rest, checks meanwhile fail saying when, /ready tells, and a browser that works after the rest checks again', async () => {
    const google = await FakeGoogle.start();
    // Every search kills the browser that sent it, before any answer.
    google.reset(() => {
      for (const browser of chromiumBrowsersOf()) crashChromium(browser);
      return { kind: 'page', html: '<html><body>never seen</body></html>' };
    });
    let now = Date.parse('2026-05-04T07:00:00.000Z');
    const app = await startTestApp({
      clock: { now: () => new Date(now) },
      env: { ROLES: 'api,projections,scraper', GOOGLE_BASE_URL: google.baseUrl, SCRAPER_MIN_INTERVAL_MS: '0' },
    });
    try {
      const { apiKey: key } = await app.createAccount({ balance: 10 });
      const project = await app.request('POST', '/api/projects', { key, body: { name: 'Eggs', domain: 'simplyrecipes.com' } });
      const projectId = project.body.project._id as string;
      const checked = async (keyword: string, count: number) => {
        const added = await app.request('POST', '/api/projects/keywords', {
          key,
          body: { projectId, keywords: [keyword], geoCode: 'US', langCode: 'en' },
        });
        const keywordIds = (added.body.project.keywords as string[]).slice(-1);
        expect((await app.request('POST', '/api/scrape/new-keywords', { key, body: { projectId, keywordIds } })).status).toBe(200);
        const results = await waitFor(
          () => checkResultsOf(app.running.stores.eventStore, projectId),
          (events) => events.length === count,
        );
        return results[count - 1]!;
      };

      // Given two checks whose browsers died before answering (the second check's second browser the third in a row)
      expect(await checked('how to boil eggs', 1)).toMatchObject({ type: 'CheckFailed' });
      const backAt = new Date(now + FIRST_REST_MS).toISOString();
      const resting = `Chromium went away before loading a page 3 times in a row; the next launch is at ${backAt}`;
      expect((await checked('soft boiled eggs', 2)).data).toMatchObject({ reason: `page 1 (start=0): browser unavailable (${resting})` });

      // then a check meanwhile fails at once, in the same words, saying when the next launch is, without launching Chromium
      expect((await checked('hard boiled eggs', 3)).data).toMatchObject({ reason: `browser unavailable (${resting})` });
      expect(chromiumBrowsersOf()).toEqual([]);
      const ready = await app.request('GET', '/ready');
      expect(ready.status).toBe(503);
      expect(ready.body.parts.browser).toMatchObject({ ok: false, launched: false, relaunches: 2, error: resting });
      const metrics = (await app.request('GET', '/metrics')).text;
      expect(metrics).toContain('rank_browser_launches_total{outcome="started",relaunch="true"} 2');
      expect(metrics).toContain('rank_checks_total{outcome="failed",reason="browser_resting"} 2');

      // When the rest is over and Chromium works again, the next check completes on a new browser
      now += FIRST_REST_MS;
      google.reset(() => ({ kind: 'page', html: readSavedSerp('fra50__persistent_browser_service__ai_overview.html') }));
      expect(await checked('eggs benedict', 4)).toMatchObject({ type: 'CheckCompleted' });
      expect((await app.request('GET', '/ready')).body.parts.browser).toMatchObject({ ok: true, launched: true, relaunches: 3 });
    } finally {
      await app.close();
      await google.close();
    }
  }, 90_000);
});
