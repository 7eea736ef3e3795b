import { randomUUID } from 'node:crypto';
import {
  type ConsumerGroupOptions,
  type EventStore,
  type ExpectedRevision,
  type NewEvent,
  type RecordedEvent,
  type Subscription,
  WrongExpectedRevisionError,
} from './event-store.port';

export type MakeEventStore = () => Promise<{ store: EventStore; dispose: () => Promise<void> }>;

/**
 * The guarantees of the EventStore port, run against one adapter. Every test writes to streams of its
 * own (random names) and looks only at its own events in the log, so the suite can also run against a
 * shared EventStoreDB server that holds other data.
 */
export function describeEventStoreContract(name: string, makeStore: MakeEventStore): void {
  describe(`EventStore contract: ${name}`, () => {
    let store: EventStore;
    let dispose: () => Promise<void>;

    beforeEach(async () => {
      ({ store, dispose } = await makeStore());
    });

    afterEach(async () => {
      await dispose();
    });

    describe('appendToStream and readStream', () => {
      it('numbers a new stream from revision 0 and reads back exactly what was appended', async () => {
        const stream = streamName('order');
        const events = [
          newEvent('OrderPlaced', { orderId: 'o-1', lines: [{ sku: 'a', quantity: 2 }] }, { correlationId: 'c-1' }),
          newEvent('OrderPaid', { amount: 12.5, currency: 'EUR', note: 'déjà vu ✓', paidBy: null, card: true }),
          newEvent('OrderShipped', {}),
        ];

        const result = await store.appendToStream(stream, events, { expectedRevision: 'no_stream' });
        const read = await store.readStream(stream);

        expect(result.nextExpectedRevision).toBe(2);
        expect(read.map(comparable)).toEqual(
          events.map((event, revision) => ({
            id: event.id,
            streamName: stream,
            revision,
            type: event.type,
            data: event.data,
            metadata: event.metadata ?? {},
          })),
        );
        for (const event of read) {
          expect(event.recordedAt).toBeInstanceOf(Date);
          expect(Math.abs(event.recordedAt.getTime() - Date.now())).toBeLessThan(60_000);
        }
      });

      it('reports the log position of the last appended event, and positions grow with revisions', async () => {
        const stream = streamName('positions');
        const result = await store.appendToStream(stream, [newEvent(), newEvent(), newEvent()], { expectedRevision: 'no_stream' });
        const read = await store.readStream(stream);

        expect(result.position).toBe(read[2]!.position);
        expect(read[0]!.position).toBeLessThan(read[1]!.position);
        expect(read[1]!.position).toBeLessThan(read[2]!.position);
      });

      it('continues the revisions of an existing stream', async () => {
        const stream = streamName('continue');
        const first = await store.appendToStream(stream, [newEvent(), newEvent()], { expectedRevision: 'no_stream' });
        const second = await store.appendToStream(stream, [newEvent(), newEvent()], { expectedRevision: first.nextExpectedRevision });

        expect(second.nextExpectedRevision).toBe(3);
        expect((await store.readStream(stream)).map((event) => event.revision)).toEqual([0, 1, 2, 3]);
        expect(second.position).toBeGreaterThan(first.position);
      });

      it('reads forwards from a revision and up to maxCount', async () => {
        const stream = await streamWithRevisions(store, 5);

        expect(revisionsOf(await store.readStream(stream, { fromRevision: 2 }))).toEqual([2, 3, 4]);
        expect(revisionsOf(await store.readStream(stream, { fromRevision: 1, maxCount: 2 }))).toEqual([1, 2]);
        expect(revisionsOf(await store.readStream(stream, { maxCount: 1 }))).toEqual([0]);
        expect(revisionsOf(await store.readStream(stream, { fromRevision: 5 }))).toEqual([]);
      });

      it('reads backwards from the end or from a revision, and up to maxCount', async () => {
        const stream = await streamWithRevisions(store, 5);

        expect(revisionsOf(await store.readStream(stream, { direction: 'backwards' }))).toEqual([4, 3, 2, 1, 0]);
        expect(revisionsOf(await store.readStream(stream, { direction: 'backwards', maxCount: 1 }))).toEqual([4]);
        expect(revisionsOf(await store.readStream(stream, { direction: 'backwards', fromRevision: 2 }))).toEqual([2, 1, 0]);
        expect(revisionsOf(await store.readStream(stream, { direction: 'backwards', fromRevision: 3, maxCount: 2 }))).toEqual([3, 2]);
      });

      it('reads a stream that was never written as an empty list', async () => {
        const stream = streamName('absent');

        expect(await store.readStream(stream)).toEqual([]);
        expect(await store.readStream(stream, { direction: 'backwards', maxCount: 1 })).toEqual([]);
      });

      it('rejects what EventStoreDB cannot store: non-UUID ids, empty batches, $-prefixed streams and types', async () => {
        const stream = streamName('invalid');

        await expect(store.appendToStream(stream, [{ ...newEvent(), id: 'not-a-uuid' }], { expectedRevision: 'any' })).rejects.toThrow(
          TypeError,
        );
        await expect(store.appendToStream(stream, [], { expectedRevision: 'any' })).rejects.toThrow(RangeError);
        await expect(store.appendToStream(`$${stream}`, [newEvent()], { expectedRevision: 'any' })).rejects.toThrow(TypeError);
        await expect(store.appendToStream(stream, [newEvent('$Sneaky')], { expectedRevision: 'any' })).rejects.toThrow(TypeError);
        expect(await store.readStream(stream)).toEqual([]);
      });
    });

    describe('expected revision', () => {
      async function expectConflict(stream: string, expectedRevision: ExpectedRevision, actual: number | 'no_stream'): Promise<void> {
        const before = await store.readStream(stream);
        const error = await store.appendToStream(stream, [newEvent()], { expectedRevision }).catch((caught: unknown) => caught);

        expect(error).toBeInstanceOf(WrongExpectedRevisionError);
        expect(error).toMatchObject({ streamName: stream, expected: expectedRevision, actual });
        expect(await store.readStream(stream)).toEqual(before);
      }

      it('accepts a number equal to the last revision and rejects any other, with the actual revision', async () => {
        const stream = await streamWithRevisions(store, 3);

        await expectConflict(stream, 1, 2);
        await expectConflict(stream, 3, 2);
        await expectConflict(stream, 0, 2);
        const result = await store.appendToStream(stream, [newEvent()], { expectedRevision: 2 });
        expect(result.nextExpectedRevision).toBe(3);
      });

      it('rejects a number when the stream does not exist', async () => {
        await expectConflict(streamName('absent'), 0, 'no_stream');
      });

      it('accepts no_stream only when the stream does not exist', async () => {
        const stream = streamName('no-stream');
        await store.appendToStream(stream, [newEvent()], { expectedRevision: 'no_stream' });

        await expectConflict(stream, 'no_stream', 0);
      });

      it('accepts stream_exists only when the stream exists', async () => {
        const stream = streamName('exists');
        await expectConflict(stream, 'stream_exists', 'no_stream');
        await store.appendToStream(stream, [newEvent()], { expectedRevision: 'no_stream' });

        const result = await store.appendToStream(stream, [newEvent()], { expectedRevision: 'stream_exists' });
        expect(result.nextExpectedRevision).toBe(1);
      });

      it('accepts any whether or not the stream exists', async () => {
        const stream = streamName('any');

        expect((await store.appendToStream(stream, [newEvent()], { expectedRevision: 'any' })).nextExpectedRevision).toBe(0);
        expect((await store.appendToStream(stream, [newEvent()], { expectedRevision: 'any' })).nextExpectedRevision).toBe(1);
      });
    });

    describe('idempotent append by event id', () => {
      it('stores a repeated batch once and answers with the stream revision and the existing position', async () => {
        const stream = streamName('repeat');
        const batch = [newEvent(), newEvent()];
        const first = await store.appendToStream(stream, batch, { expectedRevision: 'no_stream' });

        const again = await store.appendToStream(stream, batch, { expectedRevision: 'no_stream' });

        expect(again).toEqual(first);
        expect(await store.readStream(stream)).toHaveLength(2);
      });

      it('accepts a repeat even when the expected revision no longer matches (an at-least-once worker retrying)', async () => {
        const stream = streamName('late-repeat');
        const result = newEvent('CheckCompleted', { keyword: 'k-1' });
        const stored = await store.appendToStream(stream, [newEvent('CheckRequested')], { expectedRevision: 'no_stream' });
        const appended = await store.appendToStream(stream, [result], { expectedRevision: stored.nextExpectedRevision });
        await store.appendToStream(stream, [newEvent('CheckRequested')], { expectedRevision: appended.nextExpectedRevision });

        const retried = await store.appendToStream(stream, [result], { expectedRevision: 2 });

        expect(retried).toEqual({ nextExpectedRevision: 2, position: appended.position });
        expect((await store.readStream(stream)).filter((event) => event.id === result.id)).toHaveLength(1);
      });

      it('stores only the new events of a partly repeated batch', async () => {
        const stream = streamName('partial');
        const [a, b, c] = [newEvent(), newEvent(), newEvent()];
        await store.appendToStream(stream, [a], { expectedRevision: 'no_stream' });

        const result = await store.appendToStream(stream, [a, b, c], { expectedRevision: 0 });

        expect(result.nextExpectedRevision).toBe(2);
        expect((await store.readStream(stream)).map((event) => [event.id, event.revision])).toEqual([
          [a.id, 0],
          [b.id, 1],
          [c.id, 2],
        ]);
      });

      it('still checks the expected revision for the new events of a partly repeated batch', async () => {
        const stream = streamName('partial-conflict');
        const a = newEvent();
        await store.appendToStream(stream, [a, newEvent()], { expectedRevision: 'no_stream' });

        await expect(store.appendToStream(stream, [a, newEvent()], { expectedRevision: 0 })).rejects.toBeInstanceOf(
          WrongExpectedRevisionError,
        );
        expect(await store.readStream(stream)).toHaveLength(2);
      });

      it('stores an id named twice in one batch once, and compares ids regardless of letter case', async () => {
        const stream = streamName('same-id');
        const event = newEvent();
        const upperCase = { ...event, id: event.id.toUpperCase() };

        await store.appendToStream(stream, [upperCase, event], { expectedRevision: 'no_stream' });
        await store.appendToStream(stream, [event], { expectedRevision: 'any' });

        expect((await store.readStream(stream)).map((recorded) => recorded.id)).toEqual([event.id]);
      });

      it('keeps ids per stream: the same id may be appended to two streams', async () => {
        const event = newEvent();
        const [first, second] = [streamName('first'), streamName('second')];

        await store.appendToStream(first, [event], { expectedRevision: 'no_stream' });
        await store.appendToStream(second, [event], { expectedRevision: 'no_stream' });

        expect(await store.readStream(first)).toHaveLength(1);
        expect(await store.readStream(second)).toHaveLength(1);
      });
    });

    describe('streamRevision', () => {
      it('is the last revision of a stream, and null for an absent or deleted one', async () => {
        const stream = streamName('revision');
        expect(await store.streamRevision(stream)).toBeNull();

        await store.appendToStream(stream, [newEvent(), newEvent()], { expectedRevision: 'no_stream' });
        expect(await store.streamRevision(stream)).toBe(1);

        await store.deleteStream(stream);
        expect(await store.streamRevision(stream)).toBeNull();
      });
    });

    describe('lastPosition', () => {
      it('is at or after the position of the newest append, and nothing is read after it', async () => {
        const { position } = await store.appendToStream(streamName('last'), [newEvent()], { expectedRevision: 'no_stream' });

        const last = await store.lastPosition();

        expect(last).toBeGreaterThanOrEqual(position);
        expect(await store.readAll({ afterPosition: last })).toEqual([]);
      });

      it('never moves back: the events of a stream deleted at the end of the log still count', async () => {
        const doomed = streamName('last-deleted');
        const { position } = await store.appendToStream(doomed, [newEvent(), newEvent()], { expectedRevision: 'no_stream' });
        await store.deleteStream(doomed);

        expect(await store.lastPosition()).toBeGreaterThanOrEqual(position);
      });
    });

    describe('readAll', () => {
      it('returns the events of all streams in position order, strictly after a position, up to maxCount', async () => {
        const [a, b] = [streamName('all-a'), streamName('all-b')];
        const e1 = newEvent();
        const e2 = newEvent();
        const e3 = newEvent();
        const p1 = (await store.appendToStream(a, [e1], { expectedRevision: 'no_stream' })).position;
        const p2 = (await store.appendToStream(b, [e2], { expectedRevision: 'no_stream' })).position;
        await store.appendToStream(a, [e3], { expectedRevision: 0 });

        const after = await store.readAll({ afterPosition: p1 });
        const limited = await store.readAll({ afterPosition: p1, maxCount: 1 });

        expect(idsIn(after, [a, b])).toEqual([e2.id, e3.id]);
        expectStrictlyIncreasing(after.map((event) => event.position));
        expect(after.every((event) => event.position > p1)).toBe(true);
        expect(limited).toHaveLength(1);
        expect(limited[0]!.position).toBeGreaterThan(p1);
        expect(limited[0]!.position).toBeLessThanOrEqual(p2);
      });

      it('returns the same event records as readStream', async () => {
        const [checkpoint, stream] = [await logMarker(store), streamName('same-record')];
        await store.appendToStream(stream, [newEvent('Tested', { n: 1 }, { by: 'contract' })], { expectedRevision: 'no_stream' });

        const [fromStream] = await store.readStream(stream);
        const fromLog = (await store.readAll({ afterPosition: checkpoint })).find((event) => event.streamName === stream);

        expect(fromLog).toEqual(fromStream);
      });

      it('starts at the beginning of the log by default', async () => {
        const stream = streamName('start');
        const { position } = await store.appendToStream(stream, [newEvent()], { expectedRevision: 'no_stream' });

        const [first] = await store.readAll({ maxCount: 1 });

        expect(first!.position).toBeLessThanOrEqual(position);
      });
    });

    describe('subscribeToAll', () => {
      let subscription: Subscription | undefined;

      afterEach(async () => {
        await subscription?.stop();
        subscription = undefined;
      });

      it('catches up from the checkpoint, then delivers new appends live, in position order', async () => {
        const [checkpoint, stream] = [await logMarker(store), streamName('live')];
        const early = [newEvent(), newEvent()];
        const late = [newEvent(), newEvent()];
        await store.appendToStream(stream, early, { expectedRevision: 'no_stream' });
        const delivered: RecordedEvent[] = [];

        subscription = store.subscribeToAll({ afterPosition: checkpoint, onEvent: (event) => void delivered.push(event) });
        await waitFor(() => idsIn(delivered, [stream]).length === 2);
        await store.appendToStream(stream, late, { expectedRevision: 1 });
        await waitFor(() => idsIn(delivered, [stream]).length === 4);

        expect(idsIn(delivered, [stream])).toEqual([...early, ...late].map((event) => event.id));
        expect(delivered.every((event) => event.position > checkpoint)).toBe(true);
        expectStrictlyIncreasing(delivered.map((event) => event.position));
      });

      it('resumes strictly after a checkpoint position', async () => {
        const stream = streamName('resume');
        const [e1, e2, e3] = [newEvent(), newEvent(), newEvent()];
        await store.appendToStream(stream, [e1], { expectedRevision: 'no_stream' });
        const checkpoint = (await store.appendToStream(stream, [e2], { expectedRevision: 0 })).position;
        await store.appendToStream(stream, [e3], { expectedRevision: 1 });
        const delivered: RecordedEvent[] = [];

        subscription = store.subscribeToAll({ afterPosition: checkpoint, onEvent: (event) => void delivered.push(event) });
        await waitFor(() => idsIn(delivered, [stream]).length >= 1);

        expect(idsIn(delivered, [stream])).toEqual([e3.id]);
      });

      it('waits for each handler call to settle before the next, also while events arrive live', async () => {
        const [checkpoint, stream] = [await logMarker(store), streamName('serial')];
        const delivered: RecordedEvent[] = [];
        let running = 0;
        let mostAtOnce = 0;
        await store.appendToStream(stream, [newEvent(), newEvent(), newEvent()], { expectedRevision: 'no_stream' });

        subscription = store.subscribeToAll({
          afterPosition: checkpoint,
          onEvent: async (event) => {
            running += 1;
            mostAtOnce = Math.max(mostAtOnce, running);
            await sleep(5);
            delivered.push(event);
            running -= 1;
          },
        });
        for (let revision = 2; revision < 7; revision++) {
          await store.appendToStream(stream, [newEvent()], { expectedRevision: revision });
        }
        await waitFor(() => idsIn(delivered, [stream]).length === 8);

        expect(mostAtOnce).toBe(1);
        expect(delivered.filter((event) => event.streamName === stream).map((event) => event.revision)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
        expectStrictlyIncreasing(delivered.map((event) => event.position));
      });

      it('stops at a handler error and reports it to onError', async () => {
        const [checkpoint, stream] = [await logMarker(store), streamName('failing')];
        const [e1, e2, e3] = [newEvent(), newEvent(), newEvent()];
        await store.appendToStream(stream, [e1, e2], { expectedRevision: 'no_stream' });
        const handled: string[] = [];
        const errors: unknown[] = [];
        const failure = new Error('projection failed');

        subscription = store.subscribeToAll({
          afterPosition: checkpoint,
          onEvent: (event) => {
            if (event.streamName !== stream) return;
            handled.push(event.id);
            if (event.id === e2.id) throw failure;
          },
          onError: (error) => errors.push(error),
        });
        await waitFor(() => errors.length > 0);
        await store.appendToStream(stream, [e3], { expectedRevision: 1 });
        await sleep(400);

        expect(errors).toEqual([failure]);
        expect(handled).toEqual([e1.id, e2.id]);
      });

      it('stop() resolves only after the in-flight handler finished, and nothing is delivered afterwards', async () => {
        const [checkpoint, stream] = [await logMarker(store), streamName('stop')];
        await store.appendToStream(stream, [newEvent(), newEvent()], { expectedRevision: 'no_stream' });
        const release = deferred();
        const handled: RecordedEvent[] = [];
        let handlerFinished = false;

        const stopping = (subscription = store.subscribeToAll({
          afterPosition: checkpoint,
          onEvent: async (event) => {
            if (event.streamName !== stream) return;
            handled.push(event);
            await release.promise;
            handlerFinished = true;
          },
        }));
        await waitFor(() => handled.length === 1);
        let stopped = false;
        const stop = stopping.stop().then(() => {
          stopped = true;
          expect(handlerFinished).toBe(true);
        });
        await sleep(50);
        expect(stopped).toBe(false);
        release.resolve();
        await stop;
        await store.appendToStream(stream, [newEvent()], { expectedRevision: 1 });
        await sleep(400);

        expect(handled).toHaveLength(1);
      });
    });

    describe('joinConsumerGroup', () => {
      const members: Subscription[] = [];
      /** A work-stream prefix and a group of this test's own, so a shared server's other data stays out. */
      const workPrefix = () => `contract_work${randomUUID().replace(/-/g, '')}-`;
      const groupName = () => `contract-group-${randomUUID()}`;
      const join = (
        options: Omit<ConsumerGroupOptions, 'maxInFlight' | 'messageTimeoutMs' | 'maxRetries'> & Partial<ConsumerGroupOptions>,
      ) => {
        const member = store.joinConsumerGroup({ maxInFlight: 4, messageTimeoutMs: 30_000, maxRetries: 2, ...options });
        members.push(member);
        return member;
      };

      afterEach(async () => {
        await Promise.all(members.splice(0).map((member) => member.stop()));
      });

      it('hands every event of the prefixed streams to the member once, old and live, and nothing else', async () => {
        const [prefix, group] = [workPrefix(), groupName()];
        const early = [newEvent(), newEvent()];
        await store.appendToStream(`${prefix}a`, early, { expectedRevision: 'no_stream' });
        await store.appendToStream(streamName('not-work'), [newEvent()], { expectedRevision: 'no_stream' });
        const handled: RecordedEvent[] = [];

        join({ group, streamPrefix: prefix, onEvent: async (event) => void handled.push(event) });
        await waitFor(() => handled.length === 2, 15_000);
        const late = newEvent('Late', { n: 1 });
        await store.appendToStream(`${prefix}b`, [late], { expectedRevision: 'no_stream' });
        await waitFor(() => handled.length === 3, 15_000);
        await sleep(300);

        expect(handled.map((event) => event.id).sort()).toEqual([...early, late].map((event) => event.id).sort());
        expect(handled.find((event) => event.id === late.id)).toMatchObject({
          streamName: `${prefix}b`,
          type: 'Late',
          data: { n: 1 },
          revision: 0,
        });
      });

      it('does not hand out again what a member acknowledged, also to a member that joins later', async () => {
        const [prefix, group] = [workPrefix(), groupName()];
        await store.appendToStream(`${prefix}a`, [newEvent(), newEvent(), newEvent()], { expectedRevision: 'no_stream' });
        const first: string[] = [];
        const member = join({ group, streamPrefix: prefix, onEvent: async (event) => void first.push(event.id) });
        await waitFor(() => first.length === 3, 15_000);
        await sleep(300);
        await member.stop();

        const fresh = newEvent();
        await store.appendToStream(`${prefix}a`, [fresh], { expectedRevision: 2 });
        const second: string[] = [];
        join({ group, streamPrefix: prefix, onEvent: async (event) => void second.push(event.id) });
        await waitFor(() => second.length >= 1, 15_000);
        await sleep(500);

        expect(second).toEqual([fresh.id]);
      });

      it('shares the events between two members, each event handled by one of them', async () => {
        const [prefix, group] = [workPrefix(), groupName()];
        const events = range(20).map((n) => newEvent('Work', { n }));
        await store.appendToStream(`${prefix}a`, events, { expectedRevision: 'no_stream' });
        const byMember: string[][] = [[], []];
        for (const index of [0, 1]) {
          join({
            group,
            streamPrefix: prefix,
            maxInFlight: 2,
            onEvent: async (event) => {
              await sleep(40);
              byMember[index]!.push(event.id);
            },
          });
        }
        await waitFor(() => byMember[0]!.length + byMember[1]!.length >= 20, 20_000);
        await sleep(300);

        expect([...byMember[0]!, ...byMember[1]!].sort()).toEqual(events.map((event) => event.id).sort());
        expect(byMember[0]!.length).toBeGreaterThan(0);
        expect(byMember[1]!.length).toBeGreaterThan(0);
      });

      it('runs at most maxInFlight handlers of a member at once', async () => {
        const [prefix, group] = [workPrefix(), groupName()];
        await store.appendToStream(
          `${prefix}a`,
          range(8).map(() => newEvent()),
          { expectedRevision: 'no_stream' },
        );
        let running = 0;
        let mostAtOnce = 0;
        let done = 0;
        join({
          group,
          streamPrefix: prefix,
          maxInFlight: 3,
          onEvent: async () => {
            running += 1;
            mostAtOnce = Math.max(mostAtOnce, running);
            await sleep(50);
            running -= 1;
            done += 1;
          },
        });
        await waitFor(() => done === 8, 15_000);

        expect(mostAtOnce).toBeGreaterThan(1);
        expect(mostAtOnce).toBeLessThanOrEqual(3);
      });

      it('offers an event again when its handler throws, counting the attempts', async () => {
        const [prefix, group] = [workPrefix(), groupName()];
        const flaky = newEvent();
        await store.appendToStream(`${prefix}a`, [flaky], { expectedRevision: 'no_stream' });
        const attempts: number[] = [];
        join({
          group,
          streamPrefix: prefix,
          onEvent: async (_event, attempt) => {
            attempts.push(attempt);
            if (attempt === 1) throw new Error('transient');
          },
        });
        await waitFor(() => attempts.length === 2, 15_000);
        await sleep(500);

        expect(attempts).toEqual([1, 2]);
      });

      it('parks an event after maxRetries retries, reports it, and never offers it again', async () => {
        const [prefix, group] = [workPrefix(), groupName()];
        const poison = newEvent();
        const healthy = newEvent();
        await store.appendToStream(`${prefix}a`, [poison, healthy], { expectedRevision: 'no_stream' });
        const attempts: number[] = [];
        const parked: Array<{ id: string; error: unknown }> = [];
        const handledHealthy: string[] = [];
        const failure = new Error('always fails');
        const member = join({
          group,
          streamPrefix: prefix,
          maxRetries: 2,
          onEvent: async (event, attempt) => {
            if (event.id === healthy.id) return void handledHealthy.push(event.id);
            attempts.push(attempt);
            throw failure;
          },
          onParked: (event, error) => parked.push({ id: event.id, error }),
        });
        await waitFor(() => parked.length === 1, 15_000);
        await member.stop();
        const later: string[] = [];
        join({ group, streamPrefix: prefix, onEvent: async (event) => void later.push(event.id) });
        await sleep(1_000);

        expect(attempts).toEqual([1, 2, 3]);
        expect(parked).toEqual([{ id: poison.id, error: failure }]);
        expect(handledHealthy).toEqual([healthy.id]);
        expect(later).toEqual([]);
      });

      it('offers an event to another member when its handler does not settle within the message timeout', async () => {
        const [prefix, group] = [workPrefix(), groupName()];
        const stuck = newEvent();
        await store.appendToStream(`${prefix}a`, [stuck], { expectedRevision: 'no_stream' });
        const hung: number[] = [];
        const release = deferred();
        join({
          group,
          streamPrefix: prefix,
          messageTimeoutMs: 1_000,
          maxInFlight: 1,
          // A member that hangs (or whose process died) does not settle the event in time.
          onEvent: async (_event, attempt) => {
            hung.push(attempt);
            await release.promise;
          },
        });
        await waitFor(() => hung.length === 1, 15_000);
        const rescued: Array<{ id: string; attempt: number }> = [];
        join({
          group,
          streamPrefix: prefix,
          messageTimeoutMs: 1_000,
          onEvent: async (event, attempt) => void rescued.push({ id: event.id, attempt }),
        });
        await waitFor(() => rescued.length >= 1, 20_000);

        release.resolve();

        // EventStoreDB's round robin may first give the retry back to the hung member (attempt 2), so
        // the other member can get it at attempt 3; SQLite hands it to the free member at attempt 2.
        expect(rescued[0]!.id).toBe(stuck.id);
        expect(rescued[0]!.attempt).toBeGreaterThanOrEqual(2);
      });

      it('keeps two groups apart: each gets every event', async () => {
        const prefix = workPrefix();
        const events = [newEvent(), newEvent()];
        await store.appendToStream(`${prefix}a`, events, { expectedRevision: 'no_stream' });
        const [a, b]: string[][] = [[], []];
        join({ group: groupName(), streamPrefix: prefix, onEvent: async (event) => void a!.push(event.id) });
        join({ group: groupName(), streamPrefix: prefix, onEvent: async (event) => void b!.push(event.id) });
        await waitFor(() => a!.length === 2 && b!.length === 2, 15_000);

        expect(a!.sort()).toEqual(events.map((event) => event.id).sort());
        expect(b!.sort()).toEqual(events.map((event) => event.id).sort());
      });

      it('stop() waits for the handlers under way and takes nothing afterwards; unsettled work goes to the group', async () => {
        const [prefix, group] = [workPrefix(), groupName()];
        await store.appendToStream(`${prefix}a`, [newEvent()], { expectedRevision: 'no_stream' });
        const release = deferred();
        let handlerFinished = false;
        const seen: string[] = [];
        const member = join({
          group,
          streamPrefix: prefix,
          onEvent: async (event) => {
            seen.push(event.id);
            await release.promise;
            handlerFinished = true;
          },
        });
        await waitFor(() => seen.length === 1, 15_000);
        let stopped = false;
        const stop = member.stop().then(() => {
          stopped = true;
        });
        await sleep(50);
        expect(stopped).toBe(false);
        release.resolve();
        await stop;
        expect(handlerFinished).toBe(true);
        await store.appendToStream(`${prefix}a`, [newEvent()], { expectedRevision: 0 });
        await sleep(500);

        expect(seen).toHaveLength(1);
      });
    });

    describe('deleteStream', () => {
      it('removes the stream from readStream and readAll, and leaves other streams alone', async () => {
        const checkpoint = await logMarker(store);
        const [doomed, kept] = [streamName('doomed'), streamName('kept')];
        await store.appendToStream(doomed, [newEvent(), newEvent(), newEvent()], { expectedRevision: 'no_stream' });
        const keptEvent = newEvent();
        await store.appendToStream(kept, [keptEvent], { expectedRevision: 'no_stream' });

        await store.deleteStream(doomed);

        expect(await store.readStream(doomed)).toEqual([]);
        expect(await store.readStream(doomed, { direction: 'backwards', maxCount: 1 })).toEqual([]);
        expect(idsIn(await store.readAll({ afterPosition: checkpoint }), [doomed, kept])).toEqual([keptEvent.id]);
        expect(await store.readStream(kept)).toHaveLength(1);
      });

      it('hides deleted events from a subscription catching up over them', async () => {
        const checkpoint = await logMarker(store);
        const [doomed, kept] = [streamName('doomed'), streamName('kept')];
        await store.appendToStream(doomed, [newEvent()], { expectedRevision: 'no_stream' });
        const keptEvent = newEvent();
        await store.appendToStream(kept, [keptEvent], { expectedRevision: 'no_stream' });
        await store.deleteStream(doomed);
        const delivered: RecordedEvent[] = [];

        const subscription = store.subscribeToAll({ afterPosition: checkpoint, onEvent: (event) => void delivered.push(event) });
        try {
          await waitFor(() => idsIn(delivered, [kept]).length === 1);
        } finally {
          await subscription.stop();
        }

        expect(idsIn(delivered, [doomed])).toEqual([]);
      });

      it('lets no_stream start the stream again, its revisions continuing after the deleted ones', async () => {
        const checkpoint = await logMarker(store);
        const stream = await streamWithRevisions(store, 3);
        await store.deleteStream(stream);
        const reborn = newEvent();

        const result = await store.appendToStream(stream, [reborn], { expectedRevision: 'no_stream' });

        expect(result.nextExpectedRevision).toBe(3);
        expect((await store.readStream(stream)).map((event) => [event.id, event.revision])).toEqual([[reborn.id, 3]]);
        expect(idsIn(await store.readAll({ afterPosition: checkpoint }), [stream])).toEqual([reborn.id]);
        expect((await store.appendToStream(stream, [newEvent()], { expectedRevision: 3 })).nextExpectedRevision).toBe(4);
      });

      it('does nothing for a stream that does not exist', async () => {
        const stream = streamName('never');

        await expect(store.deleteStream(stream)).resolves.toBeUndefined();
        expect((await store.appendToStream(stream, [newEvent()], { expectedRevision: 'no_stream' })).nextExpectedRevision).toBe(0);
      });
    });

    describe('concurrent appends to one stream', () => {
      it('gives each revision to exactly one of 50 read-then-append callers and loses no event', async () => {
        const stream = streamName('contended');
        const callers = Array.from({ length: 50 }, () => newEvent('Contended'));
        let conflicts = 0;

        const wonRevisions = await Promise.all(
          callers.map(async (event) => {
            for (;;) {
              const [last] = await store.readStream(stream, { direction: 'backwards', maxCount: 1 });
              try {
                const result = await store.appendToStream(stream, [event], {
                  expectedRevision: last ? last.revision : 'no_stream',
                });
                return result.nextExpectedRevision;
              } catch (error) {
                if (!(error instanceof WrongExpectedRevisionError)) throw error;
                conflicts += 1;
              }
            }
          }),
        );

        const stored = await store.readStream(stream);
        expect([...wonRevisions].sort((x, y) => x - y)).toEqual(range(50));
        expect(stored.map((event) => event.revision)).toEqual(range(50));
        expect(new Set(stored.map((event) => event.id))).toEqual(new Set(callers.map((event) => event.id)));
        expect(conflicts).toBeGreaterThan(0);
      });
    });
  });
}

export function streamName(prefix: string): string {
  return `contract_${prefix}-${randomUUID()}`;
}

export function newEvent(type = 'Tested', data: Record<string, unknown> = {}, metadata?: Record<string, unknown>): NewEvent {
  return metadata === undefined ? { id: randomUUID(), type, data } : { id: randomUUID(), type, data, metadata };
}

/** Polls until `condition` holds; fails the test with a clear message after `timeoutMs`. */
export async function waitFor(condition: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`Condition not met within ${timeoutMs} ms`);
    await sleep(10);
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Appends an event to a stream of its own and returns its position: a checkpoint before what follows. */
async function logMarker(store: EventStore): Promise<number> {
  return (await store.appendToStream(streamName('marker'), [newEvent('Marker')], { expectedRevision: 'no_stream' })).position;
}

async function streamWithRevisions(store: EventStore, count: number): Promise<string> {
  const stream = streamName('numbered');
  await store.appendToStream(
    stream,
    range(count).map((n) => newEvent('Numbered', { n })),
    { expectedRevision: 'no_stream' },
  );
  return stream;
}

function comparable(event: RecordedEvent): Omit<RecordedEvent, 'position' | 'recordedAt'> {
  const { position: _position, recordedAt: _recordedAt, ...rest } = event;
  return rest;
}

function revisionsOf(events: RecordedEvent[]): number[] {
  return events.map((event) => event.revision);
}

function idsIn(events: RecordedEvent[], streams: string[]): string[] {
  return events.filter((event) => streams.includes(event.streamName)).map((event) => event.id);
}

function expectStrictlyIncreasing(values: number[]): void {
  for (let i = 1; i < values.length; i++) expect(values[i]).toBeGreaterThan(values[i - 1]!);
}

function range(count: number): number[] {
  return Array.from({ length: count }, (_, i) => i);
}

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve };
}
