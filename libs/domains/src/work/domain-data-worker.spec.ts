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

  it('keeps a retry waiting when a completed check asks for the same page, and runs the retry when due', async () => {
    // Given a page's page-speed fetch that failed (round 1; its retry due a minute later, by now)
    const asked: ScheduledJob[] = [];
    const retrying = new DomainDataWorker({
      store,
      now: () => new Date('2026-03-01T00:00:00.000Z'),
      fetchRecord: async () => ({ lastSuccessAt: null, failures: 1, round: 1 }),
      run: async (scheduled: ScheduledJob) => void asked.push(scheduled),
      log: () => undefined,
      tickMs: 5,
    });
    const url = 'https://a.example/eggs';
    const append = (stream: string, type: string, data: Record<string, unknown>) =>
      store.appendToStream(stream, [{ id: crypto.randomUUID(), type, data }], { expectedRevision: 'any' });
    await append('domain-a.example', 'DomainDataFetchFailed', {
      domain: 'a.example',
      kind: 'pagespeed',
      target: url,
      level: 'page',
      reason: 'psi: timeout',
      failedAt: '2026-02-28T23:58:00.000Z',
      attempt: 1,
      origin: 'background',
      round: 1,
    });
    // When a check that ranks with that page completes (a fetch due at once, which waits for the round's retries)
    await append('check-c1', 'CheckCompleted', {
      checkId: 'c1',
      batchId: 'b1',
      projectId: 'p1',
      keywordId: 'k1',
      completedAt: '2026-03-01T00:00:00.000Z',
      serpTop: 50,
      position: { position: 3, url, title: '', domain: 'a.example' },
      results: [],
      aiOverview: [],
    });
    await retrying.start();
    try {
      // then the retry is what runs (before, the check's fetch replaced it and was refused: nothing ran)
      await waitFor(
        async () => asked.filter((s) => s.job.kind === 'pagespeed'),
        (jobs) => jobs.length > 0,
        5_000,
        5,
      );
      expect(asked.filter((s) => s.job.kind === 'pagespeed')).toEqual([expect.objectContaining({ retryOfRound: 1 })]);
    } finally {
      await retrying.stop();
    }
  });
});
