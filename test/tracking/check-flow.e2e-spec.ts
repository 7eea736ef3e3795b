import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes, randomUUID } from 'node:crypto';
import { FakeGoogle } from '@rank/serp/fetcher/test-support/fake-google';
import { readSavedSerp } from '@rank/serp/fetcher/test-support/saved-serp';
import { ProjectionRunner } from '@rank/projector/projection-runner';
import type { RecordedEvent } from '@rank/event-store/event-store.port';
import { WorkDispatcherLifecycle } from '@rank/tracking/dispatch/work-dispatcher.lifecycle';
import { CheckWorkerLifecycle } from '@rank/tracking/check/check-worker.lifecycle';
import { DISPATCHER_CHECKPOINT_STREAM } from '@rank/tracking/dispatch/work-dispatcher';
import { createEventStore } from '@rank/event-store/create-event-store';
import { startAppProcess } from '../support/app-process';
import { startTestApp, TEST_ADMIN_TOKEN, TestApp } from '../support/test-app';
import { checkResultsOf } from '../support/seed-checks';
import { waitFor } from '@rank/platform/testing/wait-for';

const EGGS_PAGE = readSavedSerp('fra50__persistent_browser_service__ai_overview.html');
const CAPTCHA_PAGE = readSavedSerp('zlurad__serp-parser__desktop-recaptcha.html');

/** Plays Google: the eggs page for most queries, a captcha for "blocked ...", slow answers for "slow ...". */
async function startGoogle(options: { slowMs?: number } = {}): Promise<FakeGoogle> {
  const google = await FakeGoogle.start();
  google.reset((request) => {
    const q = request.query.get('q') ?? '';
    if (q.startsWith('blocked')) return { kind: 'page', html: CAPTCHA_PAGE };
    const page = { kind: 'page' as const, html: EGGS_PAGE };
    return q.startsWith('slow') ? { kind: 'delay', ms: options.slowMs ?? 3000, then: page } : page;
  });
  return google;
}

const scraperEnv = (google: FakeGoogle) => ({
  ROLES: 'api,projections,scraper',
  GOOGLE_BASE_URL: google.baseUrl,
  SCRAPER_BLOCK_REST_MS: '1',
  SCRAPER_RETRY_BASE_DELAY_MS: '10',
  SCRAPER_RETRY_MAX_DELAY_MS: '20',
});

async function setUpProject(app: TestApp, key: string, keywords: string[], settings: Record<string, unknown> = {}) {
  const project = await app.request('POST', '/api/projects', { key, body: { name: 'Eggs', domain: 'simplyrecipes.com', ...settings } });
  const projectId = project.body.project._id as string;
  await app.request('POST', '/api/projects/keywords', { key, body: { projectId, keywords, geoCode: 'US', langCode: 'en' } });
  const detail = await app.request('GET', `/api/projects/${projectId}`, { key });
  const ids = Object.fromEntries(detail.body.project.keywords.map((k: { keyword: string; _id: string }) => [k.keyword, k._id]));
  return { projectId, ids: ids as Record<string, string> };
}

const checksOf = (app: TestApp, projectId: string) => checkResultsOf(app.running.stores.eventStore, projectId);
const waitForChecks = (app: TestApp, projectId: string, count: number) =>
  waitFor(
    () => checksOf(app, projectId),
    (events) => events.length >= count,
  );
const balanceOf = async (app: TestApp, accountId: string) =>
  (await app.admin('GET', `/admin/accounts/${accountId}`)).body.account.virtualBalance as number;

describe('On-demand checks: POST /api/scrape/new-keywords through the scraper to the stored result', () => {
  let google: FakeGoogle;
  let app: TestApp;
  beforeAll(async () => {
    google = await startGoogle();
    app = await startTestApp({ env: scraperEnv(google) });
  });
  afterAll(async () => {
    await app.close();
    await google.close();
  });

  it('charges at once, answers processing, stores the parsed result, and refunds a check that failed', async () => {
    const { accountId, apiKey: key } = await app.createAccount({ balance: 10 });
    const { projectId, ids } = await setUpProject(app, key, ['how to boil eggs', 'blocked query']);

    const response = await app.request('POST', '/api/scrape/new-keywords', { key, body: { projectId, keywordIds: Object.values(ids) } });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      success: true,
      message: expect.any(String),
      status: 'processing',
      summary: { total: 2, accepted: 2, errors: 0 },
    });
    expect(await balanceOf(app, accountId)).toBe(8);

    const events = await waitForChecks(app, projectId, 2);
    const byKeyword = Object.fromEntries(events.map((e: RecordedEvent) => [(e.data as { keywordId: string }).keywordId, e]));
    const completed = byKeyword[ids['how to boil eggs']!]!;
    expect(completed.type).toBe('CheckCompleted');
    expect(completed.data).toMatchObject({
      projectId,
      serpTop: 50,
      position: {
        position: 5,
        domain: 'simplyrecipes.com',
        url: 'https://www.simplyrecipes.com/recipes/how_to_make_perfect_hard_boiled_eggs/',
      },
    });
    expect((completed.data.results as unknown[]).length).toBe(9);
    expect((completed.data.aiOverview as { domain: string }[]).map((s) => s.domain)).toContain('recipetineats.com');

    const failed = byKeyword[ids['blocked query']!]!;
    expect(failed.type).toBe('CheckFailed');
    expect(failed.data).toMatchObject({ refundCredits: 1, reason: expect.stringMatching(/block|captcha/i) });
    await waitFor(
      () => balanceOf(app, accountId),
      (balance) => balance === 9,
    );

    const runner = app.running.app.get(ProjectionRunner);
    await runner.waitUntilCaughtUp();
    const rows = await app.running.stores.readStore.query<{ keyword_id: string; status: string; position: number }>(
      'SELECT keyword_id, status, position FROM keyword_updates FINAL WHERE project_id = {projectId:String} ORDER BY status',
      { projectId },
    );
    expect(rows).toEqual([
      { keyword_id: ids['blocked query'], status: 'failed', position: 0 },
      { keyword_id: ids['how to boil eggs'], status: 'success', position: 5 },
    ]);
  });

  it('charges 2 credits a keyword for a project that scrapes 100 deep', async () => {
    const { accountId, apiKey: key } = await app.createAccount({ balance: 5 });
    const { projectId, ids } = await setUpProject(app, key, ['eggs one', 'eggs two'], { serpTop: 100 });
    expect(
      (await app.request('POST', '/api/scrape/new-keywords', { key, body: { projectId, keywordIds: Object.values(ids) } })).status,
    ).toBe(200);
    expect(await balanceOf(app, accountId)).toBe(1);
    await waitForChecks(app, projectId, 2);
  });

  it("keeps each keyword's results in a stream of its own, and deleting the project erases them all, a removed keyword's too", async () => {
    const { apiKey: key } = await app.createAccount({ balance: 10 });
    const { projectId, ids } = await setUpProject(app, key, ['eggs', 'boiled eggs']);
    await app.request('POST', '/api/scrape/new-keywords', { key, body: { projectId, keywordIds: Object.values(ids) } });
    await waitForChecks(app, projectId, 2);
    await app.running.app.get(CheckWorkerLifecycle).current!.idle();
    const streams = (await checksOf(app, projectId)).map((e) => e.streamName).sort();
    expect(streams).toEqual([`checks-${projectId}-${ids['boiled eggs']}`, `checks-${projectId}-${ids['eggs']}`].sort());

    expect((await app.request('DELETE', '/api/projects/keywords', { key, body: { projectId, keywordIds: [ids['eggs']] } })).status).toBe(
      200,
    );
    expect((await app.request('DELETE', '/api/projects', { key, body: { _id: projectId } })).status).toBe(200);

    expect(await checksOf(app, projectId)).toEqual([]);
  });

  it('refuses what it cannot do, charging nothing', async () => {
    const { accountId, apiKey: key } = await app.createAccount({ balance: 1 });
    const { projectId, ids } = await setUpProject(app, key, ['a', 'b']);
    const other = await setUpProject(app, key, ['c']);

    const cases: [unknown, number, RegExp][] = [
      [{ projectId, keywordIds: Object.values(ids) }, 400, /^Insufficient balance$/],
      [{ projectId, keywordIds: [other.ids.c] }, 400, /must all belong to the project/],
      [{ projectId, keywordIds: [] }, 400, /keywordIds must contain at least 1 elements/],
      [{ projectId, keywordIds: ['nope'] }, 400, /keywordIds must be a 24-character hex id/],
      [{ projectId: 'f'.repeat(24), keywordIds: [ids.a] }, 404, /Project not found/],
    ];
    for (const [body, status, message] of cases) {
      const response = await app.request('POST', '/api/scrape/new-keywords', { key, body });
      expect({ body, status: response.status }).toEqual({ body, status });
      expect(response.body.message).toMatch(message);
    }
    expect(await balanceOf(app, accountId)).toBe(1);

    await app.admin('PATCH', `/admin/accounts/${accountId}`, { status: 'suspended' });
    const suspended = await app.request('POST', '/api/scrape/new-keywords', { key, body: { projectId, keywordIds: [ids.a] } });
    expect(suspended.status).toBe(403);
    expect(suspended.body).toMatchObject({ message: 'Account suspended', suspended: true });
  });
});

describe('At-least-once delivery, exactly-once results', () => {
  it('a work order read again after a restart queues nothing new, and a check delivered twice is stored and charged once', async () => {
    const google = await startGoogle();
    const dataDir = mkdtempSync(join(tmpdir(), 'rank-tracker-redeliver-'));
    const database = `redeliver_${randomBytes(4).toString('hex')}`;
    const first = await startTestApp({ dataDir, database, env: scraperEnv(google) });
    const { accountId, apiKey: key } = await first.createAccount({ balance: 10 });
    const { projectId, ids } = await setUpProject(first, key, ['eggs', 'blocked eggs']);
    const scrape = await first.request('POST', '/api/scrape/new-keywords', { key, body: { projectId, keywordIds: Object.values(ids) } });
    await waitForChecks(first, projectId, 2);
    await waitFor(
      () => balanceOf(first, accountId),
      (b) => b === 9,
    );
    const searchesBefore = google.searches.length;

    await first.close({ keepData: true });
    // Forget the dispatcher's progress: on restart it reads the whole log again and meets the work order twice.
    const events = await createEventStore({ sqlitePath: join(dataDir, 'events.sqlite') });
    await events.deleteStream(DISPATCHER_CHECKPOINT_STREAM);
    await events.close();

    const second = await startTestApp({ dataDir, database, env: scraperEnv(google) });
    try {
      await second.running.app.get(WorkDispatcherLifecycle).current!.caughtUp();
      const workStreams = (await second.running.stores.eventStore.readAll()).filter((e) => e.type === 'CheckQueued');
      expect(workStreams).toHaveLength(2);
      expect(google.searches.length).toBe(searchesBefore);

      // Both checks handed out again, as a redelivery would: both run, neither is stored or refunded twice.
      for (const queued of workStreams) {
        await second.running.stores.eventStore.appendToStream(
          `check-work-again-${queued.revision}`,
          [{ id: randomUUID(), type: 'CheckQueued', data: queued.data }],
          { expectedRevision: 'no_stream' },
        );
      }
      await waitFor(
        async () => google.searches.length,
        (n) => n >= searchesBefore + 2,
      );
      await second.running.app.get(CheckWorkerLifecycle).current!.idle();
      await second.running.app.get(WorkDispatcherLifecycle).current!.caughtUp();
      expect((await checksOf(second, projectId)).map((e) => e.type).sort()).toEqual(['CheckCompleted', 'CheckFailed']);
      expect(await balanceOf(second, accountId)).toBe(9);
      expect(scrape.body.status).toBe('processing');
    } finally {
      await second.close();
      await google.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('a project delete killed after it was recorded, before its streams were erased, is completed from the log after the restart', async () => {
    const google = await startGoogle();
    const dataDir = mkdtempSync(join(tmpdir(), 'rank-tracker-erase-'));
    const database = `erase_${randomBytes(4).toString('hex')}`;
    const first = await startTestApp({ dataDir, database, env: scraperEnv(google) });
    const { accountId, apiKey: key } = await first.createAccount({ balance: 10 });
    const { projectId, ids } = await setUpProject(first, key, ['eggs', 'boiled eggs']);
    await first.request('POST', '/api/scrape/new-keywords', { key, body: { projectId, keywordIds: Object.values(ids) } });
    await waitForChecks(first, projectId, 2);
    await first.running.app.get(CheckWorkerLifecycle).current!.idle();
    await first.close({ keepData: true });

    // What the request leaves when its process dies between recording the delete and erasing.
    const events = await createEventStore({ sqlitePath: join(dataDir, 'events.sqlite') });
    await events.appendToStream(
      `workspace-${accountId}`,
      [{ id: randomUUID(), type: 'ProjectDeleted', data: { projectId, deletedAt: new Date().toISOString() } }],
      { expectedRevision: 'stream_exists' },
    );
    expect(await checkResultsOf(events, projectId)).toHaveLength(2);
    await events.close();

    const second = await startTestApp({ dataDir, database });
    try {
      await second.running.app.get(WorkDispatcherLifecycle).current!.caughtUp();
      const store = second.running.stores.eventStore;
      expect(await checkResultsOf(store, projectId)).toEqual([]);
      expect(await store.readStream(`project-${projectId}`)).toEqual([]);
      expect((await second.request('GET', `/api/projects/${projectId}`, { key })).status).toBe(404);
    } finally {
      await second.close();
      await google.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('a scraper killed in the middle of a batch finishes it after the restart: every check stored once, charged once', async () => {
    const google = await startGoogle({ slowMs: 4000 });
    const dataDir = mkdtempSync(join(tmpdir(), 'rank-tracker-crash-'));
    const child = await startAppProcess({
      ...scraperEnv(google),
      DATA_DIR: dataDir,
      CHDB_PATH: join(dataDir, 'child-clickhouse'),
      ADMIN_TOKEN: TEST_ADMIN_TOKEN,
      LOG_LEVEL: 'error',
      SCRAPER_CHECKS_AT_ONCE: '1',
    });
    let app: TestApp | undefined;
    try {
      const call = async (method: string, path: string, key: string, body?: unknown) => {
        const r = await fetch(new URL(path, child.url), {
          method,
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        return (await r.json()) as any;
      };
      const opened = await call('POST', '/admin/accounts', TEST_ADMIN_TOKEN, { balance: 10 });
      const key = opened.apiKey as string;
      const projectId = (await call('POST', '/api/projects', key, { name: 'Crash', domain: 'simplyrecipes.com' })).project._id as string;
      const added = await call('POST', '/api/projects/keywords', key, {
        projectId,
        keywords: ['eggs first', 'slow eggs second', 'eggs third'],
        geoCode: 'US',
        langCode: 'en',
      });
      await call('POST', '/api/scrape/new-keywords', key, { projectId, keywordIds: added.project.keywords });
      // Killed while the slow second check is loading: the first is stored, the rest are not.
      await waitFor(
        async () => google.searches.filter((s) => (s.query.get('q') ?? '').startsWith('slow')).length,
        (n) => n >= 1,
      );
      await child.kill('SIGKILL');

      app = await startTestApp({ dataDir, env: scraperEnv(google) });
      const events = await waitForChecks(app, projectId, 3);
      await app.running.app.get(CheckWorkerLifecycle).current!.idle();
      const stored = await checksOf(app, projectId);
      expect(stored).toHaveLength(3);
      expect(new Set(stored.map((e) => (e.data as { keywordId: string }).keywordId)).size).toBe(3);
      expect(stored.every((e) => e.type === 'CheckCompleted')).toBe(true);
      expect(events.length).toBe(3);
      expect((await app.admin('GET', `/admin/accounts/${opened.account._id}`)).body.account.virtualBalance).toBe(7);
    } finally {
      await child.kill();
      await app?.close();
      await google.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 90_000);
});
