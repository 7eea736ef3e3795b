import { randomUUID } from 'node:crypto';
import type { EventStore } from '@rank/event-store/event-store.port';
import { ALL_PROJECTIONS } from '@rank/projector/all-projections';
import { ProjectionRunner } from '@rank/projector/projection-runner';
import type { ReadStore } from '@rank/read-store/read-store.port';
import { CheckScheduler } from '@rank/tracking/schedule/check-scheduler';
import { startTestApp, TestApp } from '../support/test-app';
import { waitUntilLogProjected } from '../support/projected-log';
import { waitFor } from '@rank/platform/testing/wait-for';

const clock = {
  current: new Date('2026-03-10T11:00:00.000Z'),
  now() {
    return this.current;
  },
};

/**
 * Events that bypass the API's validation (written by an old version, or another writer) and that
 * ClickHouse refuses: the projection sets them aside and goes on, for every account.
 */
describe('Projection: one bad event never stalls the read models', () => {
  let app: TestApp;
  let store: EventStore;
  let readStore: ReadStore;
  let runner: ProjectionRunner;

  beforeAll(async () => {
    app = await startTestApp({ clock });
    store = app.running.stores.eventStore;
    readStore = app.running.stores.readStore;
    runner = app.running.app.get(ProjectionRunner);
  });
  afterAll(() => app.close());

  const rows = <T>(sql: string, params: Record<string, unknown> = {}) => readStore.query<T>(sql, params);
  const appendPoison = async (streamName: string, type: string, data: Record<string, unknown>) => {
    const id = randomUUID();
    await store.appendToStream(streamName, [{ id, type, data }], { expectedRevision: 'any' });
    return id;
  };

  it('dead-letters poison events, projects everything after them, and the scheduler still sees new projects', async () => {
    const { apiKey: first } = await app.createAccount();
    const before = (await app.request('POST', '/api/projects', { key: first, body: { name: 'Before', domain: 'before.example' } })).body
      .project._id as string;
    await runner.waitUntilCaughtUp();

    const poisonAccount = '0123456789abcdef01234567';
    const poisonProject = 'fedcba9876543210fedcba98';
    const folderPoison = await appendPoison(`workspace-${poisonAccount}`, 'FolderCreated', {
      folderId: 'aaaaaaaaaaaaaaaaaaaaaaaa',
      name: 'bad \ud800',
      position: 0,
      createdAt: '2026-03-01T00:00:00.000Z',
    });
    const keywordPoison = await appendPoison(`project-${poisonProject}`, 'KeywordsAdded', {
      keywords: [{ keywordId: 'bbbbbbbbbbbbbbbbbbbbbbbb', value: 'nul \ud83d', geoCode: 'US', langCode: 'en' }],
      addedAt: '2026-03-01T00:00:00.000Z',
    });
    const notePoison = await appendPoison(`project-${poisonProject}`, 'NoteSaved', {
      noteId: 'cccccccccccccccccccccccc',
      date: '2026-03-01',
      text: 'a \ud800 b',
      color: 'info',
      savedAt: '2026-03-01T00:00:00.000Z',
    });

    // Another account, after the poison: its project must reach ClickHouse and be scheduled.
    const { apiKey: second } = await app.createAccount();
    const after = await app.request('POST', '/api/projects', {
      key: second,
      body: { name: 'After', domain: 'after.example', updateTime: 12, updateTimezone: 'UTC' },
    });
    const afterId = after.body.project._id as string;
    await app.request('POST', '/api/projects/keywords', {
      key: second,
      body: { projectId: afterId, keywords: ['after'], geoCode: 'US', langCode: 'en' },
    });
    await runner.waitUntilCaughtUp();

    const dead = await rows<{ event_id: string; type: string; error: string }>(
      'SELECT event_id, type, error FROM projection_dead_letters FINAL ORDER BY position',
    );
    expect(dead.map((d) => d.event_id)).toEqual([folderPoison, keywordPoison, notePoison]);
    expect(dead.map((d) => d.type)).toEqual(['FolderCreated', 'KeywordsAdded', 'NoteSaved']);
    expect(dead[0]!.error).toMatch(/^folders: .*CANNOT_PARSE|^folders: .*surrogate/);
    expect(runner.deadLetters).toBe(3);
    const projects = await rows<{ project_id: string }>('SELECT project_id FROM projects FINAL ORDER BY name');
    expect(projects.map((p) => p.project_id)).toEqual(expect.arrayContaining([before, afterId]));

    expect(await waitUntilLogProjected(runner, store)).toBeUndefined(); // the checkpoint reaches the log's end

    clock.current = new Date('2026-03-10T12:00:00.000Z');
    await app.running.app.get(CheckScheduler).requestDueSlots();
    const slots = (await store.readStream(`schedule-${afterId}`)).map((e) => e.type);
    expect(slots).toContain('ScheduledCheckRequested');
  });

  it('stays idle after a project delete: no re-reading of the log, flat CPU', async () => {
    const { apiKey } = await app.createAccount();
    const projectId = (await app.request('POST', '/api/projects', { key: apiKey, body: { name: 'Doomed', domain: 'doomed.example' } })).body
      .project._id;
    await app.request('DELETE', '/api/projects', { key: apiKey, body: { _id: projectId } });
    await runner.waitUntilCaughtUp();
    await waitFor(
      async () => (await rows('SELECT 1 FROM projects FINAL WHERE project_id = {id:String}', { id: projectId })).length,
      (n) => n === 0,
    );

    // The delete's last writes settle: the work dispatcher records its checkpoint within a second or so.
    let seen = -1;
    while (seen !== runner.eventsHandled) {
      seen = runner.eventsHandled;
      await new Promise((r) => setTimeout(r, 1_500));
    }
    const handled = runner.eventsHandled;
    const subscriptions = runner.subscriptions;
    const cpu = process.cpuUsage();
    await new Promise((r) => setTimeout(r, 2_000));
    const used = process.cpuUsage(cpu);
    expect(runner.eventsHandled).toBe(handled);
    expect(runner.subscriptions).toBe(subscriptions);
    // The probe saw 56 % of a core; an idle follower polls a little.
    expect((used.user + used.system) / 1000 / 2_000).toBeLessThan(0.2);
  });

  it('retries a store that is unreachable for a while, sets nothing aside, and reads the log once', async () => {
    const failing = { left: 3, attempts: 0 };
    const flaky: ReadStore = new Proxy(readStore, {
      get(target, property, receiver) {
        const value = Reflect.get(target, property, receiver);
        if (property !== 'insert') return typeof value === 'function' ? value.bind(target) : value;
        return async (table: string, batch: Record<string, unknown>[]) => {
          if (table !== 'projection_checkpoints' && failing.left > 0) {
            failing.left--;
            failing.attempts++;
            throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:8123'), { code: 'ECONNREFUSED' });
          }
          return target.insert(table, batch);
        };
      },
    });
    const logs: string[] = [];
    const flakyRunner = new ProjectionRunner(store, flaky, ALL_PROJECTIONS, {
      name: 'flaky',
      retryDelayMs: 20,
      maxRetryDelayMs: 80,
      log: (m) => logs.push(m),
    });
    await flakyRunner.start();
    try {
      await flakyRunner.waitUntilCaughtUp(20_000);
      expect(failing.attempts).toBe(3);
      // The poison events of the first test, and nothing more: a failure that passes sets nothing aside.
      expect(flakyRunner.deadLetters).toBe(runner.deadLetters);
      expect(flakyRunner.subscriptions).toBe(1);
      expect(logs.some((m) => /ECONNREFUSED/.test(m))).toBe(true);
      const own = await rows<{ n: string }>("SELECT count() AS n FROM projection_dead_letters FINAL WHERE runner = 'flaky'");
      expect(Number(own[0]!.n)).toBe(runner.deadLetters);
    } finally {
      await flakyRunner.stop();
    }
  });
});
