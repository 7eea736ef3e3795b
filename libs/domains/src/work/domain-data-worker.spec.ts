import { DEFAULT_SETTINGS } from '@rank/projects/domain/project-settings';
import { SqliteEventStore } from '@rank/event-store/sqlite/sqlite-event-store';
import { waitFor } from '@rank/platform/testing/wait-for';
import { DomainDataWorker } from './domain-data-worker';
import { jobKey, ScheduledJob } from './domain-work.process';

describe('DomainDataWorker: places for fetches', () => {
  let store: SqliteEventStore;
  let worker: DomainDataWorker;
  /** Jobs started, by key; a.example's never finish (a site whose fetches hang). */
  let started: string[];
  let finish: () => void;

  const projectCreated = (projectId: string, domain: string) =>
    store.appendToStream(
      `workspace-${projectId}`,
      [
        {
          id: crypto.randomUUID(),
          type: 'ProjectCreated',
          data: {
            projectId,
            accountId: projectId,
            settings: { ...DEFAULT_SETTINGS, name: domain, domain },
            folder: null,
            createdAt: '2026-03-01T00:00:00.000Z',
          },
        },
      ],
      { expectedRevision: 'any' },
    );

  beforeEach(async () => {
    store = new SqliteEventStore(':memory:', { pollIntervalMs: 5 });
    started = [];
    const hanging = new Promise<void>((resolve) => (finish = resolve));
    worker = new DomainDataWorker({
      store,
      now: () => new Date('2026-03-01T00:00:00.000Z'),
      fetchRecord: async () => ({ lastSuccessAt: null, failures: 0, round: 0 }),
      run: (scheduled: ScheduledJob) => {
        started.push(jobKey(scheduled.job));
        return scheduled.job.domain === 'a.example' ? hanging : Promise.resolve();
      },
      log: () => undefined,
      tickMs: 5,
    });
  });
  afterEach(async () => {
    finish();
    await worker.stop();
    await store.close();
  });

  it("keeps a place for other domains while one domain's fetches hang", async () => {
    // Given a project whose domain's fetches all hang, created just before another
    await projectCreated('p1', 'a.example');
    await worker.start();
    await waitFor(
      async () => started.length,
      (n) => n >= 2,
      5_000,
      5,
    );
    await projectCreated('p2', 'b.example');
    // When the worker runs what is due
    // then the hanging domain holds two of the three places, and the other project's work all runs
    await waitFor(
      async () => started.filter((key) => key.includes('b.example')).length,
      (n) => n === 3,
      5_000,
      5,
    );
    expect(started.filter((key) => key.includes('a.example'))).toHaveLength(2);
    expect(worker.backlog).toBe(3);
  });
});
