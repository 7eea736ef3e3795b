import { randomUUID } from 'node:crypto';
import { SqliteEventStore } from '@rank/event-store/sqlite/sqlite-event-store';
import type { AppendResult, EventStore, ExpectedRevision, NewEvent } from '@rank/event-store/event-store.port';
import type { SerpFetchOutcome, SerpRequest } from '@rank/serp/fetcher';
import type { CreditRefund } from '../refund/refund.process';
import { CheckWorker, ProjectToCheck } from './check-worker';
import { DISPATCHER_CHECKPOINT_STREAM, WorkDispatcher } from '../dispatch/work-dispatcher';
import { checksStreamName } from '../domain/check.events';

const project: ProjectToCheck = {
  accountId: 'acc',
  ownDomains: ['shop.example'],
  serpTop: 50,
  timeZone: 'UTC',
  keywords: Array.from({ length: 4 }, (_, i) => ({
    keywordId: `k${i}`,
    value: `keyword ${i}`,
    geoCode: 'US',
    langCode: 'en',
    addedAt: '2026-01-01T00:00:00.000Z',
  })),
};

const success = (domain: string): SerpFetchOutcome => ({
  kind: 'success',
  pagesRead: 1,
  aiOverview: [],
  organic: [
    { position: 1, url: 'https://other.example/', title: 'o', domain: 'other.example', snippet: '' },
    { position: 2, url: `https://${domain}/p`, title: 't', domain, snippet: '' },
  ],
});

async function requestScrape(store: EventStore, batchId: string, keywordIds: string[]) {
  await store.appendToStream(
    'account-acc',
    [
      {
        id: randomUUID(),
        type: 'ScrapeRequested',
        data: {
          batchId,
          projectId: 'p1',
          keywordIds,
          serpTop: 50,
          creditsPerCheck: 1,
          credits: keywordIds.length,
          requestedAt: '2026-05-01T00:00:00.000Z',
        },
      },
    ],
    { expectedRevision: 'any' },
  );
}

interface Harness {
  refunds: CreditRefund[];
  erased: string[];
  loadProject: () => Promise<ProjectToCheck | null>;
  /** Whether the project is there when the worker looks again before and after writing a result. */
  stillExists?: () => Promise<boolean>;
}

function harness(): Harness {
  return { refunds: [], erased: [], loadProject: async () => project };
}

function dispatcherFor(store: EventStore, h: Harness) {
  return new WorkDispatcher(
    {
      store,
      loadProject: () => h.loadProject(),
      refund: async (r) => void h.refunds.push(r),
      eraseProject: async (projectId) => void h.erased.push(projectId),
      log: () => undefined,
    },
    10,
  );
}

function workerFor(
  store: EventStore,
  h: Harness,
  fetchSerp: (r: SerpRequest) => Promise<SerpFetchOutcome>,
  options: { concurrency?: number; checkTimeoutMs?: number; attempts?: number } = {},
) {
  return new CheckWorker(
    {
      store,
      loadProject: () => h.loadProject(),
      projectStillExists: async () => (h.stillExists ? h.stillExists() : (await h.loadProject()) !== null),
      fetchSerp,
      refund: async (r) => void h.refunds.push(r),
      now: () => new Date('2026-05-01T00:00:01.000Z'),
      log: () => undefined,
    },
    { concurrency: options.concurrency ?? 2, checkTimeoutMs: options.checkTimeoutMs, attempts: options.attempts },
  );
}

const storedResults = async (store: EventStore) => (await store.readAll()).filter((e) => e.streamName.startsWith('checks-p1-'));
const resultsOf = async (store: EventStore) =>
  (await storedResults(store)).map((e) => ({ type: e.type, keywordId: (e.data as { keywordId: string }).keywordId }));
const until = async (probe: () => Promise<boolean> | boolean, ms = 8000) => {
  const deadline = Date.now() + ms;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
};

describe('WorkDispatcher and CheckWorker', () => {
  let store: SqliteEventStore;
  const running: Array<{ stop(): Promise<void> }> = [];
  const started = <T extends { stop(): Promise<void> }>(thing: T) => (running.push(thing), thing);

  beforeEach(() => {
    store = new SqliteEventStore(':memory:', { pollIntervalMs: 10 });
  });
  afterEach(async () => {
    await Promise.all(running.splice(0).map((thing) => thing.stop()));
    await store.close();
  });

  it('given a work order, queues one check per keyword, and two scrapers share the checks: each run once', async () => {
    const h = harness();
    await started(dispatcherFor(store, h)).start();
    const seen: string[][] = [[], []];
    for (const index of [0, 1]) {
      started(
        workerFor(
          store,
          h,
          async (r) => {
            await new Promise((done) => setTimeout(done, 20));
            seen[index]!.push(r.keyword);
            return success('shop.example');
          },
          { concurrency: 1 },
        ),
      ).start();
    }

    for (let b = 0; b < 3; b++) await requestScrape(store, `batch-${b}`, ['k0', 'k1', 'k2']);
    await until(async () => (await resultsOf(store)).length === 9);

    expect((await store.readStream('check-work-batch-0')).map((e) => [e.type, (e.data as { keywordId: string }).keywordId])).toEqual([
      ['CheckQueued', 'k0'],
      ['CheckQueued', 'k1'],
      ['CheckQueued', 'k2'],
    ]);
    expect(seen[0]!.length + seen[1]!.length).toBe(9);
    expect(seen[0]!.length).toBeGreaterThan(0);
    expect(seen[1]!.length).toBeGreaterThan(0);
  });

  it('given a scheduled slot, queues every keyword the project has when it is dispatched', async () => {
    const h = harness();
    await started(dispatcherFor(store, h)).start();
    await store.appendToStream(
      'schedule-p1',
      [
        {
          id: randomUUID(),
          type: 'ScheduledCheckRequested',
          data: {
            projectId: 'p1',
            accountId: 'acc',
            slotKey: '2026-05-01',
            batchId: 'slot-1',
            dueAt: '2026-05-01T00:00:00.000Z',
            requestedAt: '2026-05-01T00:00:00.000Z',
          },
        },
      ],
      { expectedRevision: 'no_stream' },
    );

    await until(async () => (await store.readStream('check-work-slot-1')).length === 4);
    const queued = (await store.readStream('check-work-slot-1')).map((e) => e.data as { keywordId: string; creditsPerCheck: number });
    expect(queued.map((q) => q.keywordId)).toEqual(['k0', 'k1', 'k2', 'k3']);
    expect(queued.every((q) => q.creditsPerCheck === 0)).toBe(true);
  });

  it("stores the project's position, and a failed check's refund is paid once even when the dispatcher reads the log again", async () => {
    const h = harness();
    const dispatcher = started(dispatcherFor(store, h));
    await dispatcher.start();
    started(
      workerFor(store, h, async (r) =>
        r.keyword === 'keyword 1' ? { kind: 'failed', reason: 'blocked by Google', pagesRead: 1 } : success('shop.example'),
      ),
    ).start();
    await requestScrape(store, 'b1', ['k0', 'k1']);
    await until(() => h.refunds.length > 0);
    await dispatcher.caughtUp();

    const events = await storedResults(store);
    const completed = events.find((e) => e.type === 'CheckCompleted')!;
    expect((completed.data as { position: { position: number } }).position.position).toBe(2);
    expect(events.find((e) => e.type === 'CheckFailed')!.data).toMatchObject({
      keywordId: 'k1',
      reason: 'blocked by Google',
      refundCredits: 1,
    });
    // Asked by the worker as it stored the failure and by the dispatcher as it read it: the account pays it once.
    const refund = { accountId: 'acc', batchId: 'b1', checkId: expect.stringMatching(/^[0-9a-f]{24}$/), credits: 1 };
    expect(h.refunds).toEqual([refund, refund]);
    expect(new Set(h.refunds.map((r) => r.checkId)).size).toBe(1);

    // A dispatcher that lost its checkpoint reads the whole log again: nothing new is queued. (The
    // refund is requested again, and the account decider pays it once: keyed by check id.)
    await dispatcher.stop();
    await store.deleteStream(DISPATCHER_CHECKPOINT_STREAM);
    const again = started(dispatcherFor(store, h));
    await again.start();
    await again.caughtUp();
    expect(await store.readStream('check-work-b1')).toHaveLength(2);
    expect(new Set(h.refunds.map((r) => r.checkId)).size).toBe(1);
  });

  it("gives a failed check's credits back as it stores the failure, not only when the dispatcher reads it (a project deleted before then takes the failure with it)", async () => {
    const h = harness();
    const dispatcher = dispatcherFor(store, h);
    await dispatcher.start();
    await requestScrape(store, 'b1', ['k0']);
    await until(async () => (await store.readStream('check-work-b1')).length === 1);
    // Given a dispatcher that is down from here on
    await dispatcher.stop();
    // when the check fails
    started(workerFor(store, h, async () => ({ kind: 'failed', reason: 'blocked by Google', pagesRead: 1 }))).start();
    // then its credits come back all the same
    await until(() => h.refunds.length === 1);
    expect(await resultsOf(store)).toEqual([{ type: 'CheckFailed', keywordId: 'k0' }]);
    expect(h.refunds).toEqual([{ accountId: 'acc', batchId: 'b1', checkId: expect.stringMatching(/^[0-9a-f]{24}$/), credits: 1 }]);
  });

  it('gives back nothing for checks that ran when a dispatcher that lost its checkpoint reads an order whose project is gone since', async () => {
    const h = harness();
    const dispatcher = dispatcherFor(store, h);
    await dispatcher.start();
    started(workerFor(store, h, async () => success('shop.example'))).start();
    await requestScrape(store, 'b1', ['k0', 'k1']);
    await until(async () => (await resultsOf(store)).length === 2);
    // Given the order's checks completed, a dispatcher that restarts from before the order, and the project deleted meanwhile
    await dispatcher.stop();
    await store.deleteStream(DISPATCHER_CHECKPOINT_STREAM);
    h.loadProject = async () => null;
    // when it reads the order again
    const again = started(dispatcherFor(store, h));
    await again.start();
    await again.caughtUp();
    // then no credit goes back: the checks were queued, and ran
    expect(h.refunds).toEqual([]);
  });

  it('gives back the credits of the checks of an order never queued when its project is gone', async () => {
    const h = harness();
    h.loadProject = async () => null;
    const dispatcher = started(dispatcherFor(store, h));
    await dispatcher.start();
    await requestScrape(store, 'b1', ['k0', 'k1']);
    await until(() => h.refunds.length === 2);
    expect(new Set(h.refunds.map((r) => r.checkId)).size).toBe(2);
  });

  it("erases each deleted project's streams from the log, so a delete killed before its erasure still completes", async () => {
    const h = harness();
    // Given a project delete recorded (the request that made it died before erasing anything)
    await store.appendToStream(
      'workspace-acc',
      [{ id: randomUUID(), type: 'ProjectDeleted', data: { projectId: 'p1', deletedAt: '2026-05-01T00:00:00.000Z' } }],
      { expectedRevision: 'any' },
    );
    // when the dispatcher reads the log
    const dispatcher = started(dispatcherFor(store, h));
    await dispatcher.start();
    await dispatcher.caughtUp();
    // then it erases that project, once per delete
    expect(h.erased).toEqual(['p1']);
  });

  it('stores a check delivered twice once', async () => {
    const h = harness();
    await started(dispatcherFor(store, h)).start();
    let searches = 0;
    started(workerFor(store, h, async () => (searches++, success('shop.example')))).start();
    await requestScrape(store, 'b1', ['k0']);
    await until(async () => (await resultsOf(store)).length === 1);
    const [queued] = await store.readStream('check-work-b1');

    // The same check again, as a redelivery would hand it out.
    await store.appendToStream('check-work-b1-again', [{ id: randomUUID(), type: 'CheckQueued', data: queued!.data }], {
      expectedRevision: 'no_stream',
    });
    await until(() => searches === 2);
    await until(async () => (await store.readStream('check-work-b1-again')).length === 1);
    await new Promise((r) => setTimeout(r, 100));

    expect(await resultsOf(store)).toEqual([{ type: 'CheckCompleted', keywordId: 'k0' }]);
  });

  it('offers a check held by a hung scraper to another after the check timeout; the result is stored once', async () => {
    const h = harness();
    await started(dispatcherFor(store, h)).start();
    let release: () => void = () => undefined;
    const gate = new Promise<void>((r) => (release = r));
    const hung = started(workerFor(store, h, async () => (await gate, success('shop.example')), { concurrency: 1, checkTimeoutMs: 300 }));
    hung.start();
    await requestScrape(store, 'b1', ['k0']);
    await until(async () => (await store.readStream('check-work-b1')).length === 1);
    await new Promise((r) => setTimeout(r, 50));

    const rescuer = started(workerFor(store, h, async () => success('shop.example'), { checkTimeoutMs: 300 }));
    rescuer.start();
    await until(async () => (await resultsOf(store)).length === 1);
    release();
    await hung.idle();

    expect(await resultsOf(store)).toEqual([{ type: 'CheckCompleted', keywordId: 'k0' }]);
  });

  it('records a check that keeps failing to store as failed after its attempts, so it does not stay processing', async () => {
    const h = harness();
    const flaky = storeFailingCompletedChecks(store);
    await started(dispatcherFor(store, h)).start();
    started(workerFor(flaky, h, async () => success('shop.example'), { attempts: 2 })).start();
    await requestScrape(store, 'b1', ['k0']);

    await until(() => h.refunds.length > 0);
    const [failed] = await storedResults(store);
    expect(failed).toMatchObject({
      type: 'CheckFailed',
      data: { keywordId: 'k0', reason: 'The check could not be completed after several attempts', refundCredits: 1 },
    });
    expect(flaky.refusedAppends).toBe(2);
  });

  it('given a project deleted between the last look and the write of a result, erases the stream the write brought back and refunds the check', async () => {
    const h = harness();
    await started(dispatcherFor(store, h)).start();
    await requestScrape(store, 'b1', ['k0']);
    await until(async () => (await store.readStream('check-work-b1')).length === 1);
    // When the delete lands after the worker's look and before its write (its erasing found the stream empty)
    let looks = 0;
    h.stillExists = async () => ++looks === 1;
    started(workerFor(store, h, async () => success('shop.example'))).start();

    // then nothing of the project is left in the log, and the account gets the credit back.
    // Before: the completed check stayed in a stream of its own, charged, and projected.
    await until(() => h.refunds.length === 1);
    expect(h.refunds).toEqual([{ accountId: 'acc', batchId: 'b1', checkId: expect.any(String), credits: 1 }]);
    expect(await storedResults(store)).toEqual([]);
    expect(await store.readStream(checksStreamName('p1', 'k0'))).toEqual([]);
  });

  it('refunds the queued checks of a deleted project and stores nothing for them', async () => {
    const h = harness();
    await started(dispatcherFor(store, h)).start();
    await requestScrape(store, 'b1', ['k0', 'k1']);
    await until(async () => (await store.readStream('check-work-b1')).length === 2);
    h.loadProject = async () => null;
    started(workerFor(store, h, async () => success('shop.example'))).start();

    await until(() => h.refunds.length === 2);
    expect(await storedResults(store)).toEqual([]);
  });
});

/** The real store, except that appending a completed check throws: a store outage seen by the worker. */
function storeFailingCompletedChecks(store: EventStore): EventStore & { refusedAppends: number } {
  const wrapper = Object.create(store) as EventStore & { refusedAppends: number };
  wrapper.refusedAppends = 0;
  wrapper.appendToStream = async (
    stream: string,
    events: NewEvent[],
    options: { expectedRevision: ExpectedRevision },
  ): Promise<AppendResult> => {
    if (events.some((e) => e.type === 'CheckCompleted')) {
      wrapper.refusedAppends++;
      throw new Error('store unavailable');
    }
    return store.appendToStream(stream, events, options);
  };
  return wrapper;
}
