import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { ProjectionRunner } from '@rank/projector/projection-runner';
import { CheckScheduler } from '@rank/tracking/schedule/check-scheduler';
import { CheckWorkerLifecycle } from '@rank/tracking/check/check-worker.lifecycle';
import { FakeGoogle } from '@rank/serp/fetcher/test-support/fake-google';
import { readSavedSerp } from '@rank/serp/fetcher/test-support/saved-serp';
import { startTestApp, TestApp } from '../support/test-app';
import { checkResultsOf } from '../support/seed-checks';
import { waitFor } from '@rank/platform/testing/wait-for';

/** A clock the test moves by hand; every replica reads the same one. */
const clock = {
  current: new Date('2026-03-28T08:00:00.000Z'),
  now() {
    return this.current;
  },
};

describe('Scheduled checks', () => {
  let google: FakeGoogle;
  let dataDir: string;
  const replicas: TestApp[] = [];
  const start = async (roles: string) => {
    const app = await startTestApp({
      dataDir,
      database: `sched_${randomBytes(4).toString('hex')}`,
      clock,
      env: { ROLES: roles, GOOGLE_BASE_URL: google.baseUrl, SCRAPER_RETRY_BASE_DELAY_MS: '10', SCRAPER_RETRY_MAX_DELAY_MS: '20' },
    });
    replicas.push(app);
    return app;
  };
  const slotsOf = async (app: TestApp, projectId: string) =>
    (await app.running.stores.eventStore.readStream(`schedule-${projectId}`)).map((e) => (e.data as { slotKey: string }).slotKey);

  beforeAll(async () => {
    google = await FakeGoogle.start();
    const page = readSavedSerp('fra50__persistent_browser_service__ai_overview.html');
    google.reset(() => ({ kind: 'page', html: page }));
    dataDir = mkdtempSync(join(tmpdir(), 'rank-tracker-scheduler-'));
  });
  afterAll(async () => {
    for (const app of replicas) await app.close();
    await google.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('requests each due slot exactly once across replicas and restarts, runs it without charging, and the next day again', async () => {
    const a = await start('api,projections,scheduler');
    const b = await start('api,projections,scheduler');
    const { accountId, apiKey: key } = await a.createAccount({ balance: 3 });
    // Berlin, 09:00 local: on 2026-03-28 that is 08:00 UTC; the next day is the spring-forward Sunday.
    const project = await a.request('POST', '/api/projects', {
      key,
      body: { name: 'Sched', domain: 'simplyrecipes.com', updateTime: 9, updateTimezone: 'Europe/Berlin' },
    });
    const projectId = project.body.project._id;
    await a.request('POST', '/api/projects/keywords', {
      key,
      body: { projectId, keywords: ['boil eggs', 'soft eggs'], geoCode: 'DE', langCode: 'de' },
    });
    for (const app of [a, b]) await app.running.app.get(ProjectionRunner).waitUntilCaughtUp();

    // Created at 08:00 UTC = 09:00 Berlin: today's slot is due right now.
    const counts = await Promise.all([a, b].map((app) => app.running.app.get(CheckScheduler).requestDueSlots()));
    expect(counts.sort()).toEqual([0, 1]);
    expect(await slotsOf(a, projectId)).toEqual(['2026-03-28']);

    // Restarted replicas, a minute later: nothing new.
    clock.current = new Date('2026-03-28T08:01:00.000Z');
    const c = await start('api,projections,scheduler,scraper');
    await c.running.app.get(ProjectionRunner).waitUntilCaughtUp();
    expect(await c.running.app.get(CheckScheduler).requestDueSlots()).toBe(0);
    expect(await slotsOf(c, projectId)).toEqual(['2026-03-28']);

    // The scraper replica runs the scheduled batch: every keyword, no credits taken.
    const checks = await waitFor(
      () => checkResultsOf(c.running.stores.eventStore, projectId),
      (events) => events.length >= 2,
    );
    expect(checks.map((e) => e.type)).toEqual(['CheckCompleted', 'CheckCompleted']);
    await c.running.app.get(CheckWorkerLifecycle).current!.idle();
    expect((await c.admin('GET', `/admin/accounts/${accountId}`)).body.account.virtualBalance).toBe(3);

    // Sunday 2026-03-29, the day Berlin moves to summer time: 09:00 local is 07:00 UTC.
    clock.current = new Date('2026-03-29T06:59:00.000Z');
    expect(await a.running.app.get(CheckScheduler).requestDueSlots()).toBe(0);
    clock.current = new Date('2026-03-29T07:00:00.000Z');
    expect(await b.running.app.get(CheckScheduler).requestDueSlots()).toBe(1);
    expect(await slotsOf(a, projectId)).toEqual(['2026-03-28', '2026-03-29']);
    await waitFor(
      () => checkResultsOf(c.running.stores.eventStore, projectId),
      (events) => events.length >= 4,
    );
  }, 60_000);
});
