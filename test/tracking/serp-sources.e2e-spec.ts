import { randomBytes } from 'node:crypto';
import type { RecordedEvent } from '@rank/event-store/event-store.port';
import { FakeGoogle } from '@rank/serp/fetcher/test-support/fake-google';
import { readSavedSerp } from '@rank/serp/fetcher/test-support/saved-serp';
import { FakeScrapingApi } from '@rank/serp/sources/testing/fake-scraping-api';
import { parseSerpPage } from '@rank/serp/parser';
import {
  startFakeDataForSeoSerp,
  FAKE_DATAFORSEO_LOGIN,
  FAKE_DATAFORSEO_PASSWORD,
} from '@rank/providers/dataforseo/testing/fake-dataforseo-serp';
import type { FakeJsonApi } from '@rank/providers/testing/fake-json-api';
import { ProjectionRunner } from '@rank/projector/projection-runner';
import { CheckScheduler } from '@rank/tracking/schedule/check-scheduler';
import { CheckRetryTimer } from '@rank/tracking/schedule/check-retry-timer';
import { CheckWorkerLifecycle } from '@rank/tracking/check/check-worker.lifecycle';
import { startTestApp, TestApp } from '../support/test-app';
import { checkResultsOf } from '../support/seed-checks';
import { waitFor } from '@rank/platform/testing/wait-for';

const EGGS_PAGE = readSavedSerp('fra50__persistent_browser_service__ai_overview.html');
const CAPTCHA_PAGE = readSavedSerp('zlurad__serp-parser__desktop-recaptcha.html');
const HUNDRED_PAGE = readSavedSerp('zlurad__serp-parser__desktop-google-100.html');
const NO_RESULTS_PAGE = readSavedSerp('karust__openserp__search_no_results.html');
const MIN_INTERVAL_MS = 600;

/** The browser says it is Chrome; the scraping API's fetch does not. */
const fromBrowser = (headers: Record<string, string | string[] | undefined>) => String(headers['user-agent'] ?? '').includes('Chrome');

async function setUpProject(app: TestApp, key: string, keywords: string[], settings: Record<string, unknown> = {}) {
  const project = await app.request('POST', '/api/projects', { key, body: { name: 'Eggs', domain: 'simplyrecipes.com', ...settings } });
  const projectId = project.body.project._id as string;
  await app.request('POST', '/api/projects/keywords', { key, body: { projectId, keywords, geoCode: 'US', langCode: 'en' } });
  const detail = await app.request('GET', `/api/projects/${projectId}`, { key });
  const ids = Object.fromEntries(detail.body.project.keywords.map((k: { keyword: string; _id: string }) => [k.keyword, k._id]));
  return { projectId, ids: ids as Record<string, string> };
}

const checksOf = (app: TestApp, projectId: string) => checkResultsOf(app.running.stores.eventStore, projectId);

describe('SERP sources: failover from a blocked browser to a scraping API, with pacing', () => {
  let google: FakeGoogle;
  let api: FakeScrapingApi;
  let app: TestApp;
  beforeAll(async () => {
    [google, api] = await Promise.all([FakeGoogle.start(), FakeScrapingApi.start()]);
    app = await startTestApp({
      env: {
        ROLES: 'api,projections,scraper',
        GOOGLE_BASE_URL: google.baseUrl,
        SERP_SOURCES: 'browser,fetch-api',
        SERP_FETCH_URL_TEMPLATE: api.template,
        SCRAPER_MIN_INTERVAL_MS: String(MIN_INTERVAL_MS),
        SCRAPER_BLOCK_REST_MS: '1',
        SCRAPER_CHECKS_AT_ONCE: '2',
      },
    });
  });
  afterAll(async () => {
    await app.close();
    await Promise.all([google.close(), api.close()]);
  });

  it("completes a check that met a captcha in the browser through the scraping API, records the source, and shows it in position-history and the day's counts", async () => {
    google.reset((seen) => ({ kind: 'page', html: fromBrowser(seen.headers) ? CAPTCHA_PAGE : EGGS_PAGE }));
    const { apiKey: key } = await app.createAccount({ balance: 10 });
    const { projectId, ids } = await setUpProject(app, key, ['how to boil eggs']);
    expect(
      (await app.request('POST', '/api/scrape/new-keywords', { key, body: { projectId, keywordIds: Object.values(ids) } })).status,
    ).toBe(200);

    const [result] = await waitFor(
      () => checksOf(app, projectId),
      (events) => events.length >= 1,
    );
    expect(result!.type).toBe('CheckCompleted');
    expect(result!.data).toMatchObject({ source: 'fetch-api', position: { position: 5, domain: 'simplyrecipes.com' } });
    // The browser asked once and met the captcha; the API fetched the page (and its next, which added nothing).
    expect(google.searches.filter((seen) => fromBrowser(seen.headers))).toHaveLength(1);
    expect(api.requests.length).toBeGreaterThanOrEqual(1);

    await app.running.app.get(ProjectionRunner).waitUntilCaughtUp();
    const history = await app.request('GET', '/api/projects/position-history', {
      key,
      query: { keywordUpdateId: (result!.data as { checkId: string }).checkId },
    });
    expect(history.status).toBe(200);
    expect(history.body.data).toMatchObject({ status: 'success', source: 'fetch-api', failureReason: null });
    const detail = await app.request('GET', `/api/projects/${projectId}`, { key });
    expect(detail.body.project.lastCheckDay).toEqual({ date: new Date().toISOString().slice(0, 10), checked: 1, failed: 0, pending: 0 });
  }, 60_000);

  it("fails a check only when every source failed, with each source's reason", async () => {
    google.reset(() => ({ kind: 'page', html: CAPTCHA_PAGE }));
    const { apiKey: key } = await app.createAccount({ balance: 10 });
    const { projectId, ids } = await setUpProject(app, key, ['blocked everywhere']);
    await app.request('POST', '/api/scrape/new-keywords', { key, body: { projectId, keywordIds: Object.values(ids) } });
    const [failed] = await waitFor(
      () => checksOf(app, projectId),
      (events) => events.length >= 1,
    );
    expect(failed!.type).toBe('CheckFailed');
    expect((failed!.data as { reason: string }).reason).toMatch(
      /^every source failed \(browser: .*captcha.* \| fetch-api: .*scraping API: captcha page/,
    );
    await app.running.app.get(ProjectionRunner).waitUntilCaughtUp();
    const detail = await app.request('GET', `/api/projects/${projectId}`, { key });
    expect(detail.body.project.lastCheckDay).toMatchObject({ checked: 0, failed: 1, pending: 0 });
  }, 60_000);

  it("keeps the scraping API's key out of a failure reason when the API quotes it back, and out of position-history", async () => {
    google.reset(() => ({ kind: 'page', html: CAPTCHA_PAGE }));
    // As some APIs do: the refusal repeats the request, key and all.
    api.reply = (request) => ({ kind: 'api-error', status: 403, body: { error: `Credits used up for key ${request.apiKey}` } });
    const { apiKey: key } = await app.createAccount({ balance: 10 });
    const { projectId, ids } = await setUpProject(app, key, ['quoted key']);
    await app.request('POST', '/api/scrape/new-keywords', { key, body: { projectId, keywordIds: Object.values(ids) } });
    const [failed] = await waitFor(
      () => checksOf(app, projectId),
      (events) => events.length >= 1,
    ).finally(() => (api.reply = () => ({ kind: 'forward' })));
    const reason = (failed!.data as { reason: string }).reason;
    expect(reason).toMatch(/fetch-api: .*answered 403: \{"error":"Credits used up for key \[secret\]"\}/);
    expect(reason).not.toContain(api.apiKey);
    await app.running.app.get(ProjectionRunner).waitUntilCaughtUp();
    const history = await app.request('GET', '/api/projects/position-history', {
      key,
      query: { keywordUpdateId: failed!.data.checkId as string },
    });
    expect(history.status).toBe(200);
    expect(JSON.stringify(history.body)).toContain('[secret]');
    expect(JSON.stringify(history.body)).not.toContain(api.apiKey);
  }, 60_000);

  it("keeps the minimum interval between two requests to Google on one egress (from the fake Google's log)", async () => {
    // A small page that ends each check at once (Google found nothing): the fake Google runs in this
    // process, and parsing a big page here would delay the moment it notes the next request's arrival.
    google.reset(() => ({ kind: 'page', html: NO_RESULTS_PAGE }));
    const { apiKey: key } = await app.createAccount({ balance: 10 });
    const { projectId, ids } = await setUpProject(app, key, ['eggs one', 'eggs two', 'eggs three', 'eggs four']);
    await app.running.app.get(CheckWorkerLifecycle).current!.idle();
    google.reset(() => ({ kind: 'page', html: NO_RESULTS_PAGE }));
    await app.request('POST', '/api/scrape/new-keywords', { key, body: { projectId, keywordIds: Object.values(ids) } });
    const results = await waitFor(
      () => checksOf(app, projectId),
      (events) => events.length >= 4,
    );
    expect(results.map((e) => e.type)).toEqual(['CheckCompleted', 'CheckCompleted', 'CheckCompleted', 'CheckCompleted']);
    // Four checks, two at once, one page each: four requests on the one egress, each a turn apart.
    const times = google.searches.filter((seen) => fromBrowser(seen.headers)).map((seen) => seen.at);
    expect(times).toHaveLength(4);
    const gaps = times.slice(1).map((at, i) => at - times[i]!);
    // Unpaced, two checks at once reach Google within a few ms of each other. Paced, the turns are an
    // interval apart, but each request's hop through the browser takes its own time on a busy machine
    // (one gap came to 406 ms at load 8): so every gap is at least half the interval, and the three
    // turns together span three intervals, less one hop's slack.
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(MIN_INTERVAL_MS / 2);
    expect(times[3]! - times[0]!).toBeGreaterThanOrEqual(3 * MIN_INTERVAL_MS - 150);
  }, 60_000);
});

describe('SERP sources: DataForSEO at serpTop 100', () => {
  let dataforseo: FakeJsonApi;
  let app: TestApp;
  const parsed = parseSerpPage(HUNDRED_PAGE);
  beforeAll(async () => {
    if (parsed.kind !== 'results') throw new Error('the saved 100-result page no longer parses');
    dataforseo = await startFakeDataForSeoSerp(new Map([['google', { organic: parsed.organic, aiOverview: parsed.aiOverview }]]));
    app = await startTestApp({
      env: {
        ROLES: 'api,projections,scraper',
        SERP_SOURCES: 'dataforseo',
        DATAFORSEO_LOGIN: FAKE_DATAFORSEO_LOGIN,
        DATAFORSEO_PASSWORD: FAKE_DATAFORSEO_PASSWORD,
        DATAFORSEO_BASE_URL: dataforseo.origin,
      },
    });
  });
  afterAll(async () => {
    await app.close();
    await dataforseo.close();
  });

  it('costs one upstream call for the whole top 100 and stores the positions our parser reads off the same saved page', async () => {
    const { apiKey: key } = await app.createAccount({ balance: 10 });
    const { projectId, ids } = await setUpProject(app, key, ['google'], { domain: 'youtube.com', serpTop: 100 });
    await app.request('POST', '/api/scrape/new-keywords', { key, body: { projectId, keywordIds: Object.values(ids) } });
    const [result] = await waitFor(
      () => checksOf(app, projectId),
      (events: RecordedEvent[]) => events.length >= 1,
    );
    // Only the SERP call counts here: the keyword's search volume is fetched from DataForSEO too.
    const serpCalls = dataforseo.requests.filter((request) => request.path === '/v3/serp/google/organic/live/advanced');
    expect(serpCalls).toHaveLength(1);
    expect(serpCalls[0]!.body).toEqual([
      expect.objectContaining({ keyword: 'google', location_code: 2840, language_code: 'en', depth: 100 }),
    ]);
    expect(result!.type).toBe('CheckCompleted');
    const data = result!.data as {
      source: string;
      serpTop: number;
      results: { position: number; url: string; domain: string }[];
      position: { position: number };
    };
    expect(data.source).toBe('dataforseo');
    expect(data.serpTop).toBe(100);
    expect(data.results.map(({ position, url, domain }) => ({ position, url, domain }))).toEqual(
      (parsed.kind === 'results' ? parsed.organic : []).map(({ position, url, domain }) => ({ position, url, domain })),
    );
    expect(data.results).toHaveLength(99);
  }, 60_000);
});

describe('SERP sources: a scheduled check blocked at 09:00 is tried again after the rest, the same day', () => {
  /** A clock the test moves by hand. */
  const clock = {
    current: new Date('2026-03-28T08:00:00.000Z'),
    now() {
      return this.current;
    },
  };
  let google: FakeGoogle;
  let app: TestApp;
  beforeAll(async () => {
    google = await FakeGoogle.start();
    app = await startTestApp({
      clock,
      database: `retry_${randomBytes(4).toString('hex')}`,
      env: { ROLES: 'api,projections,scheduler,scraper', GOOGLE_BASE_URL: google.baseUrl, SCRAPER_BLOCK_REST_MS: String(30 * 60_000) },
    });
  });
  afterAll(async () => {
    await app.close();
    await google.close();
  });

  it('records the failed try, retries when the egress is back, and stores the check once', async () => {
    google.reset(() => ({ kind: 'page', html: CAPTCHA_PAGE }));
    const { apiKey: key } = await app.createAccount({ balance: 0 });
    // Berlin, 09:00 local = 08:00 UTC on 2026-03-28: the slot is due now.
    const { projectId } = await setUpProject(app, key, ['how to boil eggs'], { updateTime: 9, updateTimezone: 'Europe/Berlin' });
    const runner = app.running.app.get(ProjectionRunner);
    await runner.waitUntilCaughtUp();
    // The scheduler's own minute may have come first: either way the slot is requested once.
    await app.running.app.get(CheckScheduler).requestDueSlots();
    expect(
      (await app.running.stores.eventStore.readStream(`schedule-${projectId}`)).map((e) => [
        e.type,
        (e.data as { slotKey: string }).slotKey,
      ]),
    ).toEqual([['ScheduledCheckRequested', '2026-03-28']]);

    // The captcha: no result, a retry at 09:30 Berlin (the end of the rest).
    const workStreamRetries = async () => {
      const events = await app.running.stores.eventStore.readAll();
      return events.filter((e) => e.type === 'CheckRetryScheduled' && (e.data as { projectId: string }).projectId === projectId);
    };
    const [retry] = await waitFor(workStreamRetries, (events) => events.length >= 1);
    expect(retry!.data).toMatchObject({
      attempt: 1,
      retryAt: '2026-03-28T08:30:00.000Z',
      reason: expect.stringMatching(/blocked by Google/),
    });
    await app.running.app.get(CheckWorkerLifecycle).current!.idle();
    expect(await checksOf(app, projectId)).toEqual([]);
    await runner.waitUntilCaughtUp();
    expect((await app.request('GET', `/api/projects/${projectId}`, { key })).body.project.lastCheckDay).toEqual({
      date: '2026-03-28',
      checked: 0,
      failed: 0,
      pending: 1,
    });

    // Not yet at 09:29; at 09:31 Google answers again and the retry is queued, once.
    const timer = app.running.app.get(CheckRetryTimer);
    clock.current = new Date('2026-03-28T08:29:00.000Z');
    expect(await timer.queueDueRetries()).toBe(0);
    google.reset(() => ({ kind: 'page', html: EGGS_PAGE }));
    clock.current = new Date('2026-03-28T08:31:00.000Z');
    // At most one: the timer's own minute may have queued it first.
    expect(await timer.queueDueRetries()).toBeLessThanOrEqual(1);

    const [completed] = await waitFor(
      () => checksOf(app, projectId),
      (events) => events.length >= 1,
    );
    expect(completed!.type).toBe('CheckCompleted');
    expect(completed!.data).toMatchObject({ completedAt: '2026-03-28T08:31:00.000Z', source: 'browser', position: { position: 5 } });

    // Stored once: the timer, asked again, finds nothing due; a second delivery would write the same event id.
    await runner.waitUntilCaughtUp();
    expect(await timer.queueDueRetries()).toBe(0);
    await app.running.app.get(CheckWorkerLifecycle).current!.idle();
    expect(await checksOf(app, projectId)).toHaveLength(1);
    expect((await app.request('GET', `/api/projects/${projectId}`, { key })).body.project.lastCheckDay).toEqual({
      date: '2026-03-28',
      checked: 1,
      failed: 0,
      pending: 0,
    });
  }, 90_000);
});
