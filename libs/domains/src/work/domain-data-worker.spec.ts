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

  /** Ends one hanging fetch, by its key. */
  let release: Map<string, () => void>;

  beforeEach(async () => {
    store = new SqliteEventStore(':memory:', { pollIntervalMs: 5 });
    started = [];
    release = new Map();
    const hanging = new Promise<void>((resolve) => (finish = resolve));
    worker = new DomainDataWorker({
      store,
      now: () => new Date('2026-03-01T00:00:00.000Z'),
      fetchRecord: async () => ({ lastSuccessAt: null, failures: 0, round: 0 }),
      run: (scheduled: ScheduledJob) => {
        const key = jobKey(scheduled.job);
        started.push(key);
        if (scheduled.job.domain === 'b.example') return Promise.resolve();
        return Promise.race([hanging, new Promise<void>((resolve) => release.set(key, resolve))]);
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

  it('gives a place that frees to a domain waiting, not to the next fetch of a domain already running', async () => {
    // Given two projects whose sites hang, holding all three places between them (a.example two, c.example one)
    await projectCreated('p1', 'a.example');
    await projectCreated('p3', 'c.example');
    await worker.start();
    await waitFor(
      async () => started.length,
      (n) => n === 3,
      5_000,
      5,
    );
    expect([...started].sort()).toEqual(['pagespeed https://a.example/', 'traffic a.example', 'traffic c.example']);
    // and another account's project waiting
    await projectCreated('p2', 'b.example');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(started).toHaveLength(3);
    // When one of a.example's fetches ends
    release.get('traffic a.example')!();
    // then the place goes to b.example, whose fetches all run, before a.example's or c.example's next
    await waitFor(
      async () => started.filter((key) => key.includes('b.example')).length,
      (n) => n === 3,
      5_000,
      5,
    );
    expect(started.slice(3, 4)).toEqual(['traffic b.example']);
  });

  it('keeps the fetches a stop cut off before its checkpoint, so the restart asks for them again', async () => {
    // Given a project whose fetches (all of them: room for every one) are under way
    const cut = new Promise<void>((resolve) => (finish = resolve));
    const stopping = new DomainDataWorker({
      store,
      now: () => new Date('2026-03-01T00:00:00.000Z'),
      fetchRecord: async () => ({ lastSuccessAt: null, failures: 0, round: 0 }),
      run: (scheduled: ScheduledJob) => {
        started.push(jobKey(scheduled.job));
        return cut;
      },
      log: () => undefined,
      concurrency: 10,
      tickMs: 5,
    });
    await projectCreated('p1', 'a.example');
    await stopping.start();
    await waitFor(
      async () => started.length,
      (n) => n === 3,
      5_000,
      5,
    );
    // When the process stops: the fetcher cuts the calls off, so they end as the worker stops
    finish();
    await stopping.stop();
    // then a worker started after the restart runs them again
    const again: string[] = [];
    const restarted = new DomainDataWorker({
      store,
      now: () => new Date('2026-03-01T00:00:00.000Z'),
      fetchRecord: async () => ({ lastSuccessAt: null, failures: 0, round: 0 }),
      run: async (scheduled: ScheduledJob) => void again.push(jobKey(scheduled.job)),
      log: () => undefined,
      tickMs: 5,
    });
    await restarted.start();
    try {
      await waitFor(
        async () => again.length,
        (n) => n === 3,
        5_000,
        5,
      );
      expect(again.sort()).toEqual([...started].sort());
    } finally {
      await restarted.stop();
    }
  });
});
