import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describeEventStoreContract, newEvent, sleep, streamName, waitFor } from '../event-store.contract';
import { type RecordedEvent, type Subscription, WrongExpectedRevisionError } from '../event-store.port';
import { SqliteEventStore, type SqliteEventStoreOptions } from './sqlite-event-store';
import { runTypeScriptChild } from '@rank/platform/testing/run-typescript-child';

function temporaryDirectory(): { dir: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'event-store-'));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

describeEventStoreContract('SQLite (temporary file)', async () => {
  const { dir, remove } = temporaryDirectory();
  const store = new SqliteEventStore(join(dir, 'events.sqlite'));
  return {
    store,
    dispose: async () => {
      await store.close();
      remove();
    },
  };
});

describe('SqliteEventStore', () => {
  let dir: string;
  let remove: () => void;
  const opened: SqliteEventStore[] = [];
  const subscriptions: Subscription[] = [];

  function open(options?: SqliteEventStoreOptions): SqliteEventStore {
    const store = new SqliteEventStore(join(dir, 'events.sqlite'), options);
    opened.push(store);
    return store;
  }

  beforeEach(() => {
    ({ dir, remove } = temporaryDirectory());
  });

  afterEach(async () => {
    await Promise.all(subscriptions.splice(0).map((subscription) => subscription.stop()));
    await Promise.all(opened.splice(0).map((store) => store.close()));
    remove();
  });

  it('works in memory, for unit tests of other modules', async () => {
    const store = new SqliteEventStore(':memory:');
    try {
      await store.appendToStream('memory-stream', [newEvent()], { expectedRevision: 'no_stream' });
      expect(await store.readStream('memory-stream')).toHaveLength(1);
    } finally {
      await store.close();
    }
  });

  it('stamps recordedAt with the injected clock at append time', async () => {
    const now = new Date('2024-03-01T12:34:56.789Z');
    const store = open({ clock: () => now });

    await store.appendToStream('clocked', [newEvent(), newEvent()], { expectedRevision: 'no_stream' });

    expect((await store.readStream('clocked')).map((event) => event.recordedAt)).toEqual([now, now]);
  });

  it('keeps every event, the revision counters of deleted streams and the position counter across a restart', async () => {
    const first = open();
    await first.appendToStream('kept', [newEvent(), newEvent()], { expectedRevision: 'no_stream' });
    await first.appendToStream('deleted', [newEvent(), newEvent()], { expectedRevision: 'no_stream' });
    const before = await first.readAll();
    await first.deleteStream('deleted');
    await first.close();

    const reopened = open();
    const kept = await reopened.readAll();
    const reborn = await reopened.appendToStream('deleted', [newEvent()], { expectedRevision: 'no_stream' });

    expect(kept).toEqual(before.filter((event) => event.streamName === 'kept'));
    expect(reborn.nextExpectedRevision).toBe(2);
    expect(reborn.position).toBeGreaterThan(Math.max(...before.map((event) => event.position)));
  });

  it('never reuses a position, even after the newest events were deleted', async () => {
    const store = open();
    const doomed = await store.appendToStream('doomed', [newEvent()], { expectedRevision: 'no_stream' });
    await store.deleteStream('doomed');

    const next = await store.appendToStream('other', [newEvent()], { expectedRevision: 'no_stream' });

    expect(next.position).toBeGreaterThan(doomed.position);
  });

  it("answers a stream's revision again from memory only while no connection has written since", async () => {
    const reader = open();
    const writer = open();
    const stream = streamName('memo');
    const other = streamName('memo-other');
    expect(await reader.streamRevision(stream)).toBeNull();
    await writer.appendToStream(stream, [newEvent()], { expectedRevision: 'no_stream' });
    expect(await reader.streamRevision(stream)).toBe(0);
    // A write to another stream by another connection, then a write by the reader itself.
    await writer.appendToStream(other, [newEvent()], { expectedRevision: 'any' });
    expect(await reader.streamRevision(other)).toBe(0);
    expect(await reader.streamRevision(stream)).toBe(0);
    await reader.appendToStream(stream, [newEvent()], { expectedRevision: 0 });
    expect(await reader.streamRevision(stream)).toBe(1);
    await writer.appendToStream(stream, [newEvent(), newEvent()], { expectedRevision: 1 });
    expect(await reader.streamRevision(stream)).toBe(3);
    expect(await reader.streamRevision(stream)).toBe(3);
    await writer.deleteStream(stream);
    expect(await reader.streamRevision(stream)).toBeNull();
    expect(await reader.streamRevision(other)).toBe(0);
    await reader.deleteStream(other);
    expect(await reader.streamRevision(other)).toBeNull();
    // A failed append (a conflict) changes nothing, and the memo still answers right.
    await expect(reader.appendToStream(other, [newEvent()], { expectedRevision: 5 })).rejects.toBeInstanceOf(WrongExpectedRevisionError);
    expect(await reader.streamRevision(other)).toBeNull();
  });

  it("sees another process's commit on its next read, though it read the revision just before", async () => {
    // The revision memo must not outlive a commit elsewhere: a key revoked on another replica fails on the next request.
    const reader = open();
    const stream = streamName('other-process');
    expect(await reader.streamRevision(stream)).toBeNull();
    const script = join(__dirname, 'testing', 'append-from-another-process.ts');
    await runTypeScriptChild(script, [join(dir, 'events.sqlite'), stream, 'writer-0', '1', '2', '1'], process.cwd());
    expect(await reader.streamRevision(stream)).toBe(1);
    expect(await reader.streamRevision(`${stream}-start`)).toBe(0);
  });

  it('checks whether the database changed once per turn of the event loop, and again in the next turn', async () => {
    const reader = open();
    const stream = streamName('turn');
    expect(await reader.streamRevision(stream)).toBeNull();
    // A commit by a connection that is not a store of this process, as another process makes it, in the same turn.
    const elsewhere = new Database(join(dir, 'events.sqlite'));
    try {
      elsewhere
        .prepare('INSERT INTO events (stream_name, revision, event_id, type, data, metadata, recorded_at) VALUES (?, 0, ?, ?, ?, ?, ?)')
        .run(stream, randomUUID(), 'Written', '{}', '{}', new Date().toISOString());
    } finally {
      elsewhere.close();
    }
    // A request handled in this turn was read off its socket before that commit: the memo may still answer it.
    expect(await reader.streamRevision(stream)).toBeNull();
    // Any input read after the commit is handled in a later turn, which looks again.
    await new Promise((resolve) => setImmediate(resolve));
    expect(await reader.streamRevision(stream)).toBe(0);
    // A turn that starts from a timer looks again too, and then finds nothing new.
    await sleep(1);
    expect(await reader.streamRevision(stream)).toBe(0);
  });

  it('subscribes from the start of the log by default and catches up across several batches', async () => {
    const store = open({ subscriptionBatchSize: 7 });
    for (let i = 0; i < 30; i++) await store.appendToStream(`stream-${i % 4}`, [newEvent()], { expectedRevision: 'any' });
    const delivered: RecordedEvent[] = [];

    subscriptions.push(store.subscribeToAll({ onEvent: (event) => void delivered.push(event) }));
    await waitFor(() => delivered.length === 30);
    await store.appendToStream('stream-live', [newEvent()], { expectedRevision: 'no_stream' });
    await waitFor(() => delivered.length === 31);

    expect(delivered).toEqual(await store.readAll());
  });

  it('delivers this process’s appends at once, without waiting for the poll interval, even mid-handler', async () => {
    const store = open({ pollIntervalMs: 60_000 });
    const delivered: RecordedEvent[] = [];
    subscriptions.push(
      store.subscribeToAll({
        onEvent: async (event) => {
          delivered.push(event);
          // The second append lands while this handler is still running.
          if (delivered.length === 1) await store.appendToStream('prompt', [newEvent()], { expectedRevision: 0 });
        },
      }),
    );
    await sleep(20);

    await store.appendToStream('prompt', [newEvent()], { expectedRevision: 'no_stream' });

    await waitFor(() => delivered.length === 2, 1000);
  });

  it('delivers another instance’s appends to a subscription by polling the shared file', async () => {
    const subscriber = open({ pollIntervalMs: 50 });
    const writer = open();
    const delivered: RecordedEvent[] = [];
    subscriptions.push(subscriber.subscribeToAll({ onEvent: (event) => void delivered.push(event) }));
    await sleep(20);

    const written = newEvent();
    await writer.appendToStream('from-elsewhere', [written], { expectedRevision: 'no_stream' });

    await waitFor(() => delivered.length === 1, 2000);
    expect(delivered[0]!.id).toBe(written.id);
  });

  it('keeps the revision guarantee for callers spread over two instances on one file', async () => {
    const instances = [open(), open()];
    const callers = Array.from({ length: 40 }, (_, i) => ({ store: instances[i % 2]!, event: newEvent() }));

    await Promise.all(
      callers.map(async ({ store, event }) => {
        for (;;) {
          const [last] = await store.readStream('shared', { direction: 'backwards', maxCount: 1 });
          try {
            return await store.appendToStream('shared', [event], { expectedRevision: last ? last.revision : 'no_stream' });
          } catch (error) {
            if (!(error instanceof WrongExpectedRevisionError)) throw error;
          }
        }
      }),
    );

    const stored = await instances[0]!.readStream('shared');
    expect(stored.map((event) => event.revision)).toEqual(Array.from({ length: 40 }, (_, i) => i));
    expect(new Set(stored.map((event) => event.id))).toEqual(new Set(callers.map(({ event }) => event.id)));
  });

  it('keeps revisions unique and batches whole when several processes append to one stream', async () => {
    const file = join(dir, 'events.sqlite');
    const reader = open();
    const stream = streamName('multi-process');
    const [writers, batches, batchSize] = [3, 200, 5];
    const script = join(__dirname, 'testing', 'append-from-another-process.ts');
    const partialReads: number[] = [];
    let running = true;

    // While the writers run, no read may ever see part of a batch.
    const watching = (async () => {
      while (running) {
        const length = (await reader.readStream(stream)).length;
        const inLog = (await reader.readAll()).filter((event) => event.streamName === stream).length;
        if (length % batchSize !== 0) partialReads.push(length);
        if (inLog % batchSize !== 0) partialReads.push(inLog);
        await sleep(2);
      }
    })();
    await Promise.all(
      Array.from({ length: writers }, (_, writer) =>
        runTypeScriptChild(script, [file, stream, `writer-${writer}`, String(batches), String(batchSize), String(writers)], process.cwd()),
      ),
    ).finally(() => (running = false));
    await watching;

    const stored = await reader.readStream(stream);
    expect(partialReads).toEqual([]);
    expect(stored.map((event) => event.revision)).toEqual(Array.from({ length: writers * batches * batchSize }, (_, i) => i));
    expect(new Set(stored.map((event) => event.id)).size).toBe(stored.length);
    for (let start = 0; start < stored.length; start += batchSize) {
      const batch = stored.slice(start, start + batchSize).map((event) => event.data);
      expect(batch.map((data) => data['index'])).toEqual([0, 1, 2, 3, 4]);
      expect(new Set(batch.map((data) => `${String(data['writer'])}/${String(data['batch'])}`)).size).toBe(1);
    }
    // The writers really overlapped: one after another would hand over only writers - 1 times.
    const writerOfEachBatch = stored.filter((_, i) => i % batchSize === 0).map((event) => event.data['writer']);
    const handovers = writerOfEachBatch.filter((writer, i) => i > 0 && writer !== writerOfEachBatch[i - 1]).length;
    expect(handovers).toBeGreaterThanOrEqual(writers);
  }, 60_000);

  it('stops its subscriptions on close and refuses further calls', async () => {
    const store = new SqliteEventStore(join(dir, 'closing.sqlite'));
    const delivered: RecordedEvent[] = [];
    const errors: unknown[] = [];
    store.subscribeToAll({ onEvent: (event) => void delivered.push(event), onError: (error) => errors.push(error) });
    await store.appendToStream('closing', [newEvent()], { expectedRevision: 'no_stream' });
    await waitFor(() => delivered.length === 1);

    await store.close();

    await expect(store.readStream('closing')).rejects.toThrow('closed');
    await expect(store.appendToStream('closing', [newEvent()], { expectedRevision: 0 })).rejects.toThrow('closed');
    await sleep(300);
    expect(errors).toEqual([]);
  });

  it('rejects a payload JSON cannot represent without writing anything', async () => {
    const store = open();
    const circular: Record<string, unknown> = {};
    circular['self'] = circular;

    await expect(
      store.appendToStream('bad-payload', [newEvent(), { ...newEvent(), data: circular }], { expectedRevision: 'no_stream' }),
    ).rejects.toThrow(TypeError);
    expect(await store.readStream('bad-payload')).toEqual([]);
  });
  describe('consumer groups across processes on one file', () => {
    it('shares a group between two instances on one file, each event handled once', async () => {
      const [a, b] = [open({ pollIntervalMs: 10 }), open({ pollIntervalMs: 10 })];
      const events = Array.from({ length: 30 }, () => newEvent());
      await a.appendToStream('work-x', events, { expectedRevision: 'no_stream' });
      const handled: string[][] = [[], []];
      const members = [a, b].map((store, index) =>
        store.joinConsumerGroup({
          group: 'g',
          streamPrefix: 'work-',
          maxInFlight: 2,
          messageTimeoutMs: 30_000,
          maxRetries: 1,
          onEvent: async (event) => {
            await sleep(5);
            handled[index]!.push(event.id);
          },
        }),
      );
      subscriptions.push(...members);
      await waitFor(() => handled[0]!.length + handled[1]!.length >= 30, 10_000);
      await sleep(100);

      expect([...handled[0]!, ...handled[1]!].sort()).toEqual(events.map((event) => event.id).sort());
      expect(handled[0]!.length).toBeGreaterThan(0);
      expect(handled[1]!.length).toBeGreaterThan(0);
    });

    it("hands a killed process's event to another member at once, not after the message timeout", async () => {
      const store = open({ pollIntervalMs: 10 });
      const work = newEvent();
      await store.appendToStream('work-y', [work], { expectedRevision: 'no_stream' });
      const child = join(__dirname, 'testing', 'hold-work-then-die.ts');

      await expect(runTypeScriptChild(child, [join(dir, 'events.sqlite'), 'g', 'work-', 'holder-log'], process.cwd())).rejects.toThrow(
        /exited with null/,
      );
      expect((await store.readStream('holder-log')).map((event) => event.data)).toEqual([{ eventId: work.id, attempt: 1 }]);
      const handed: Array<{ id: string; attempt: number }> = [];
      subscriptions.push(
        store.joinConsumerGroup({
          group: 'g',
          streamPrefix: 'work-',
          maxInFlight: 1,
          messageTimeoutMs: 600_000,
          maxRetries: 3,
          onEvent: async (event, attempt) => void handed.push({ id: event.id, attempt }),
        }),
      );
      await waitFor(() => handed.length === 1, 5_000);

      expect(handed).toEqual([{ id: work.id, attempt: 2 }]);
    }, 30_000);
  });
});
