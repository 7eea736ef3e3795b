import { CHECKPOINT_EVENT_TYPES } from '@rank/domain/checkpoints';
import { SqliteEventStore } from '@rank/event-store/sqlite/sqlite-event-store';
import { DomainDataWorker } from '@rank/domains/work/domain-data-worker';
import { WorkDispatcher } from '@rank/tracking/dispatch/work-dispatcher';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The background processes that follow the log each save a checkpoint in it. Each used to skip
 * only its own: a checkpoint of one was news to the other, which saved one in turn, and on an idle
 * service the log grew by about one event a second per process, for good.
 */
describe('checkpoints of the processes following the log, on an idle service', () => {
  let store: SqliteEventStore;
  let dispatcher: WorkDispatcher;
  let worker: DomainDataWorker;

  beforeEach(async () => {
    store = new SqliteEventStore(':memory:', { pollIntervalMs: 5 });
    dispatcher = new WorkDispatcher(
      { store, loadProject: async () => null, refund: async () => undefined, eraseProject: async () => undefined, log: () => undefined },
      100,
    );
    worker = new DomainDataWorker({
      store,
      now: () => new Date('2026-03-01T00:00:00.000Z'),
      fetchRecord: async () => ({ lastSuccessAt: null, failures: 0, round: 0 }),
      run: async () => undefined,
      log: () => undefined,
      tickMs: 5,
    });
  });
  afterEach(async () => {
    await dispatcher.stop();
    await worker.stop();
    await store.close();
  });

  const checkpoints = async () =>
    (await store.readAll()).filter((e) => (CHECKPOINT_EVENT_TYPES as readonly string[]).includes(e.type)).length;

  it("are saved once for the events there are, never for each other's", async () => {
    // Given both following the log, and an event of no concern to either
    await Promise.all([dispatcher.start(), worker.start()]);
    await store.appendToStream('notes-p1', [{ id: crypto.randomUUID(), type: 'NoteAdded', data: {} }], { expectedRevision: 'any' });
    // When the service then idles (the worker saves every 2 s, the dispatcher 0.1 s after news)
    await pause(2_500);
    const settled = await checkpoints();
    await pause(4_500);
    // then each saved for that event, and nothing more came
    expect(settled).toBeGreaterThan(0);
    expect(await checkpoints()).toBe(settled);
  });

  it("are not saved at a stop for each other's alone", async () => {
    // Given both settled after an event, each having saved for it
    await Promise.all([dispatcher.start(), worker.start()]);
    await store.appendToStream('notes-p1', [{ id: crypto.randomUUID(), type: 'NoteAdded', data: {} }], { expectedRevision: 'any' });
    await pause(2_500);
    const settled = await checkpoints();
    // When they stop (a restart), having read only each other's checkpoints since
    await dispatcher.stop();
    await worker.stop();
    // then nothing more is saved (before, the dispatcher saved once more at each stop)
    expect(await checkpoints()).toBe(settled);
  });
});
