import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { createEventStore } from '@rank/event-store/create-event-store';
import type { EventStore, RecordedEvent } from '@rank/event-store/event-store.port';
import { EventStoreDbDouble } from '@rank/event-store/eventstoredb/testing/eventstoredb-double';
import { startChdbHttpServer, type ChdbHttpServer } from '@rank/read-store/testing/chdb-http-server';
import { testChdbPath } from '@rank/read-store/testing/test-read-store';
import { FakeGoogle } from '@rank/serp/fetcher/test-support/fake-google';
import { readSavedSerp } from '@rank/serp/fetcher/test-support/saved-serp';
import { AppProcess, startAppProcess } from '../support/app-process';
import { checkResultsOf } from '../support/seed-checks';
import { TEST_ADMIN_TOKEN } from '../support/test-app';
import { METRICS_TOKEN_REFUSED } from '@rank/platform/metrics/metrics-token';
import { waitFor } from '@rank/platform/testing/wait-for';

const METRICS_TOKEN = 'metrics-token-of-the-fleet';
const EGGS_PAGE = readSavedSerp('fra50__persistent_browser_service__ai_overview.html');

/** A Google that takes a moment per page, so one scraper cannot take every check before the other starts. */
async function slowGoogle(): Promise<FakeGoogle> {
  const google = await FakeGoogle.start();
  google.reset(() => ({ kind: 'delay', ms: 300, then: { kind: 'page', html: EGGS_PAGE } }));
  return google;
}

/**
 * The distributed stack as separate processes, each started from its own entry point: the api, the
 * projector and two scrapers, on EventStoreDB (the wire-level double) and ClickHouse (the HTTP
 * interface over chDB). Only the api serves the API; the projector and the scrapers answer only
 * /health, /ready and /metrics (OPS_PORT). Only the scrapers run Chromium; they get no ClickHouse
 * settings at all.
 */
describe('Distributed mode: api, projector and two scrapers as separate processes', () => {
  const double = new EventStoreDbDouble();
  const googles: FakeGoogle[] = [];
  const processes: AppProcess[] = [];
  const dataDirs: string[] = [];
  let clickhouse: ChdbHttpServer | undefined;
  let store: EventStore | undefined;

  afterAll(async () => {
    for (const child of processes.reverse()) await child.kill('SIGTERM');
    await store?.close();
    await clickhouse?.close();
    for (const google of googles) await google.close();
    await double.stop();
    for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
  });

  const dataDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'rank-tracker-distributed-'));
    dataDirs.push(dir);
    return dir;
  };

  it('shares one work order between the scrapers: each check runs once, all are stored and read back through the api', async () => {
    const { connectionString, port } = await double.start();
    clickhouse = await startChdbHttpServer({ chdbPath: testChdbPath() });
    const shared = {
      EVENTSTORE_CONNECTION_STRING: connectionString,
      LOG_LEVEL: 'log',
      ADMIN_TOKEN: TEST_ADMIN_TOKEN,
      METRICS_TOKEN,
      OPS_PORT: '0',
    };
    const clickhouseEnv = { CLICKHOUSE_URL: clickhouse.url, CLICKHOUSE_DATABASE: `d_${randomBytes(6).toString('hex')}` };

    // The projector first: it applies the read models' migrations, which want one process at a time.
    const projector = await startAppProcess({ ...shared, ...clickhouseEnv, DATA_DIR: dataDir() }, 60_000, 'projector');
    processes.push(projector);
    const api = await startAppProcess({ ...shared, ...clickhouseEnv, DATA_DIR: dataDir(), ROLES: 'api' }, 60_000, 'api');
    processes.push(api);
    const scrapers: AppProcess[] = [];
    for (let i = 0; i < 2; i++) {
      const google = await slowGoogle();
      googles.push(google);
      const env = { ...shared, DATA_DIR: dataDir(), GOOGLE_BASE_URL: google.baseUrl, SCRAPER_CHECKS_AT_ONCE: '1' };
      scrapers.push(await startAppProcess(env, 60_000, 'scraper'));
    }
    processes.push(...scrapers);

    const call = async (method: string, path: string, key: string, body?: unknown) => {
      const response = await fetch(new URL(path, api.url), {
        method,
        headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: response.status, body: (await response.json()) as any };
    };
    const opened = await call('POST', '/admin/accounts', TEST_ADMIN_TOKEN, { name: 'Fleet', balance: 20 });
    expect(opened.status).toBe(201);
    const key = opened.body.apiKey as string;
    const projectId = (await call('POST', '/api/projects', key, { name: 'Eggs', domain: 'simplyrecipes.com' })).body.project._id as string;
    const keywords = ['eggs 1', 'eggs 2', 'eggs 3', 'eggs 4', 'eggs 5', 'eggs 6'];
    const added = await call('POST', '/api/projects/keywords', key, { projectId, keywords, geoCode: 'US', langCode: 'en' });
    const scrape = await call('POST', '/api/scrape/new-keywords', key, { projectId, keywordIds: added.body.project.keywords });
    expect(scrape.status).toBe(200);

    store = await createEventStore({ eventStoreConnectionString: connectionString, sqlitePath: join(dataDir(), 'unused.sqlite') });
    const results = await waitFor(
      () => checkResultsOf(store!, projectId),
      (events) => events.length >= 6,
      60_000,
    );
    expect(results.map((e) => e.type)).toEqual(Array(6).fill('CheckCompleted'));
    // A check may read more than one page; what matters is which scraper ran which keyword.
    const ranBy = googles.map((google) => new Set(google.searches.map((s) => s.query.get('q'))));
    expect(ranBy[0]!.size).toBeGreaterThan(0);
    expect(ranBy[1]!.size).toBeGreaterThan(0);
    expect([...ranBy[0]!, ...ranBy[1]!].sort()).toEqual(keywords);

    // The projector wrote them to ClickHouse, and the api (which runs no projection) reads them back.
    const updates = await waitFor(
      async () => (await call('GET', `/api/projects/keyword-updates?projectId=${projectId}`, key)).body,
      (body) => Object.values(body.data ?? {}).filter((keyword: any) => keyword.updates?.length > 0).length === 6,
      30_000,
    );
    expect(Object.keys(updates.data)).toHaveLength(6);

    // Each scraper and the projector answer /health, /ready and /metrics on OPS_PORT, so a fleet's
    // own figures (checks settled, pages loaded, the browser, the queue, the lag) can be watched.
    const ask = async (app: AppProcess, path: string, token?: string) => {
      const response = await fetch(new URL(path, app.url), { headers: token ? { authorization: `Bearer ${token}` } : {} });
      return { status: response.status, type: response.headers.get('content-type') ?? '', text: await response.text() };
    };
    const settled = (metrics: string) => Number(/^rank_checks_total\{outcome="completed",reason=""\} (\d+)$/m.exec(metrics)?.[1] ?? 0);
    let completedByScrapers = 0;
    for (const scraper of scrapers) {
      expect(scraper.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(await ask(scraper, '/health')).toMatchObject({ status: 200, text: '{"status":"ok"}' });
      const ready = await ask(scraper, '/ready');
      expect(ready.status).toBe(200);
      expect(JSON.parse(ready.text)).toMatchObject({
        status: 'ready',
        parts: { eventStore: { ok: true }, browser: { ok: true, launched: true } },
      });
      const refused = await ask(scraper, '/metrics');
      expect(refused.status).toBe(401);
      expect(refused.type).toContain('application/json');
      expect(JSON.parse(refused.text)).toEqual({ success: false, message: METRICS_TOKEN_REFUSED });
      const metrics = (await ask(scraper, '/metrics', METRICS_TOKEN)).text;
      expect(settled(metrics)).toBeGreaterThan(0);
      expect(metrics).toMatch(/rank_scraper_page_load_seconds_count\{outcome="loaded"\} [1-9]/);
      expect(metrics).toContain('rank_browser_launches_total{outcome="started",relaunch="false"} 1');
      completedByScrapers += settled(metrics);
    }
    expect(completedByScrapers).toBe(6);

    expect(await ask(projector, '/health')).toMatchObject({ status: 200, text: '{"status":"ok"}' });
    const projectorReady = JSON.parse((await ask(projector, '/ready')).text);
    expect(projectorReady).toMatchObject({
      status: 'ready',
      parts: { eventStore: { ok: true }, readStore: { ok: true }, projections: { ok: true } },
    });
    expect(Object.keys(projectorReady.parts)).toEqual(['eventStore', 'readStore', 'projections']);
    const projectorMetrics = (await ask(projector, '/metrics', METRICS_TOKEN)).text;
    // The work dispatcher runs in the projector: it queued the six checks the scrapers settled.
    expect(projectorMetrics).toContain('rank_checks_queued_total 6');
    expect(projectorMetrics).toMatch(/rank_projection_lag_events\{projection="[^"]+"\} \d+/);

    // The event store goes away for two seconds and comes back on its address, every connection
    // dropped. Before: the dispatcher and the scrapers' workers logged their subscriptions' death
    // once and stayed deaf to the log, so a paid order was never queued, while /ready said ready.
    await double.stop();
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    await double.start(port);
    const later = ['eggs 7', 'eggs 8'];
    const more = await call('POST', '/api/projects/keywords', key, { projectId, keywords: later, geoCode: 'US', langCode: 'en' });
    const laterIds = (more.body.project.keywords as string[]).slice(-2);
    expect((await call('POST', '/api/scrape/new-keywords', key, { projectId, keywordIds: laterIds })).status).toBe(200);
    const ofLater = (events: RecordedEvent[]) => events.filter((e) => laterIds.includes(e.data.keywordId as string));
    const after = await waitFor(
      () => checkResultsOf(store!, projectId),
      (events) => ofLater(events).length >= 2,
      90_000,
    );
    expect(ofLater(after).map((e) => e.type)).toEqual(['CheckCompleted', 'CheckCompleted']);
  }, 240_000);
});
