import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { createEventStore } from '@rank/event-store/create-event-store';
import type { EventStore } from '@rank/event-store/event-store.port';
import type { Projection } from '@rank/read-store/projection';
import type { ReadStore } from '@rank/read-store/read-store.port';
import { ProjectionRunner, ReadModelsAheadOfLogError, ReadModelsOfAnotherLogError } from './projection-runner';

/** A read store that keeps what is inserted, in order. */
function recordingReadStore(): ReadStore & { inserts: { table: string; rows: number }[]; checkpoints: number[] } {
  const inserts: { table: string; rows: number }[] = [];
  const checkpoints: number[] = [];
  return {
    database: 'recording',
    inserts,
    checkpoints,
    command: async () => undefined,
    query: async <Row>() => [] as Row[],
    queryRaw: async () => Buffer.alloc(0),
    insert: async (table, rows) => {
      if (table === 'projection_checkpoints') checkpoints.push(Number(rows[0]!['position']));
      else inserts.push({ table, rows: rows.length });
    },
    migrate: async () => [],
    close: async () => undefined,
  };
}

/** A fresh SQLite event store for each test of the calling describe, holding what `fill` appends. */
function eventStoreHolding(fill: (store: EventStore) => Promise<void>): () => EventStore {
  let root: string;
  let store: EventStore;
  beforeEach(async () => {
    root = mkdtempSync(join(tmpdir(), 'projection-runner-'));
    store = await createEventStore({ sqlitePath: join(root, 'events.sqlite') });
    await fill(store);
  });
  afterEach(async () => {
    await store.close();
    rmSync(root, { recursive: true, force: true });
  });
  return () => store;
}

/** Appends `count` events for tenRowsPerEvent in one append. */
const appendResultsSeen = (log: EventStore, count: number) =>
  log.appendToStream(
    'results-1',
    Array.from({ length: count }, () => ({ id: randomUUID(), type: 'ResultsSeen', data: {} })),
    { expectedRevision: 'any' },
  );

/** Ten rows per event, as a check's results give fifty. */
const tenRowsPerEvent: Projection = {
  name: 'ten-rows',
  tables: ['results'],
  project: (event) => Array.from({ length: 10 }, (_, i) => ({ kind: 'insert' as const, table: 'results', row: { at: event.position, i } })),
};

describe('ProjectionRunner checkpoints during a catch-up', () => {
  const store = eventStoreHolding(async (log) => {
    await appendResultsSeen(log, 100);
  });

  it('checkpoints after maxRowsPerCheckpoint rows, however few the events, so the projection never runs far ahead of ClickHouse', async () => {
    const readStore = recordingReadStore();
    const runner = new ProjectionRunner(store(), readStore, [tenRowsPerEvent], {
      maxRowsPerCheckpoint: 200,
      maxEventsPerCheckpoint: 1_000_000,
      checkpointIntervalMs: 60_000,
    });
    await runner.start();
    await runner.waitUntilCaughtUp(10_000);
    await runner.stop();

    // 100 events of 10 rows: a checkpoint about every 20 events (a checkpoint takes its position when
    // it starts, maybe an event later), the last at the end of the log.
    const checkpoints = readStore.checkpoints;
    expect(checkpoints.length).toBeGreaterThanOrEqual(5);
    expect(checkpoints.slice(1).every((position, i) => position - checkpoints[i]! <= 25)).toBe(true);
    expect(checkpoints[0]).toBeLessThanOrEqual(25);
    expect(checkpoints.at(-1)).toBe(100);
    expect(readStore.inserts.reduce((sum, insert) => sum + insert.rows, 0)).toBe(1_000);
  });
});

describe('ProjectionRunner.waitUntilCaughtUp during a catch-up', () => {
  const store = eventStoreHolding(async (log) => {
    for (let i = 0; i < 30; i++) await appendResultsSeen(log, 100);
  });

  it('leaves the batching to the catch-up: one insert when no threshold is reached, not one per look at the log', async () => {
    const readStore = recordingReadStore();
    // About 60 ms of projecting, so that waitUntilCaughtUp looks at the log several times meanwhile.
    const slowly: Projection = {
      ...tenRowsPerEvent,
      project: (event) => {
        const until = performance.now() + 0.02;
        while (performance.now() < until);
        return tenRowsPerEvent.project(event);
      },
    };
    const runner = new ProjectionRunner(store(), readStore, [slowly], {
      maxRowsPerCheckpoint: 1_000_000,
      maxEventsPerCheckpoint: 1_000_000,
      checkpointIntervalMs: 60_000,
    });
    await runner.start();
    await runner.waitUntilCaughtUp(10_000);
    await runner.stop();

    expect(readStore.inserts).toEqual([{ table: 'results', rows: 30_000 }]);
    expect(readStore.checkpoints).toEqual([3_000]);
  });
});

describe('ProjectionRunner routes events by type', () => {
  const store = eventStoreHolding(async (log) => {
    await log.appendToStream(
      'things-1',
      ['Seen', 'Heard', 'Smelt', 'Seen'].map((type) => ({ id: randomUUID(), type, data: {} })),
      { expectedRevision: 'any' },
    );
  });

  it('hands a projection that lists its event types only those, one that lists none every event, in the order given', async () => {
    const handed: string[] = [];
    const projection = (name: string, eventTypes?: string[]): Projection => ({
      name,
      tables: [],
      ...(eventTypes && { eventTypes }),
      project: (event) => {
        handed.push(`${name}:${event.type}`);
        return [];
      },
    });
    const runner = new ProjectionRunner(store(), recordingReadStore(), [
      projection('sights', ['Seen']),
      projection('everything'),
      projection('senses', ['Heard', 'Seen']),
    ]);
    await runner.start();
    await runner.waitUntilCaughtUp(10_000);
    await runner.stop();

    expect(handed).toEqual([
      'sights:Seen',
      'everything:Seen',
      'senses:Seen',
      'everything:Heard',
      'senses:Heard',
      'everything:Smelt',
      'sights:Seen',
      'everything:Seen',
      'senses:Seen',
    ]);
  });
});

describe('ProjectionRunner over a log older than its read models', () => {
  const store = eventStoreHolding(async (log) => {
    await appendResultsSeen(log, 10);
  });
  const checkpointedAt = (position: number): ReadStore => ({
    ...recordingReadStore(),
    query: async <Row>() => [{ at: String(position) }] as Row[],
  });

  const checkpointedOn = (position: number, eventId: string, previousPosition: number): ReadStore => ({
    ...recordingReadStore(),
    query: async <Row>() => [{ at: String(position), event: eventId, before: String(previousPosition) }] as Row[],
  });

  it('given read models whose checkpoint stands on another event than this log holds there (a restored copy grown past it), refuses to start', async () => {
    const [, , , , fifth] = await store().readAll({ maxCount: 5 });
    const runner = new ProjectionRunner(store(), checkpointedOn(fifth!.position, randomUUID(), fifth!.position - 1), [tenRowsPerEvent]);
    const starting = runner.start();
    await expect(starting).rejects.toBeInstanceOf(ReadModelsOfAnotherLogError);
    await expect(starting).rejects.toThrow(`but this log holds event ${fifth!.id} there`);
  });

  it('given read models whose checkpoint stands on the event this log holds there, follows the log from it', async () => {
    const [, , , fourth, fifth] = await store().readAll({ maxCount: 5 });
    const runner = new ProjectionRunner(store(), checkpointedOn(fifth!.position, fifth!.id, fourth!.position), [tenRowsPerEvent]);
    await runner.start();
    await runner.waitUntilCaughtUp();
    expect(runner.eventsHandled).toBe(5);
    await runner.stop();
  });

  it('given read models written past the log end (an older copy of the log restored), refuses to start, saying how to mend it', async () => {
    const logEnd = await store().lastPosition();
    const runner = new ProjectionRunner(store(), checkpointedAt(logEnd + 5), [tenRowsPerEvent]);
    const starting = runner.start();
    await expect(starting).rejects.toBeInstanceOf(ReadModelsAheadOfLogError);
    await expect(starting).rejects.toThrow(
      `The read models (read-models) are written up to position ${logEnd + 5} of the event log, but the log ends at ${logEnd}`,
    );
    await expect(starting).rejects.toThrow('npm run projections:rebuild');
    // It follows nothing: a later append is not projected over the gap.
    await appendResultsSeen(store(), 1);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(runner.eventsHandled).toBe(0);
  });

  it('given read models written up to the log end, starts as usual', async () => {
    const logEnd = await store().lastPosition();
    const runner = new ProjectionRunner(store(), checkpointedAt(logEnd), [tenRowsPerEvent]);
    await runner.start();
    await appendResultsSeen(store(), 1);
    await runner.waitUntilCaughtUp(5_000);
    expect(runner.eventsHandled).toBe(1);
    await runner.stop();
  });
});
