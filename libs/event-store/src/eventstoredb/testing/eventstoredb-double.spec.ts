import { randomUUID } from 'node:crypto';
import {
  ANY,
  EventStoreDBClient,
  FORWARDS,
  jsonEvent,
  NO_STREAM,
  PersistentSubscriptionDoesNotExistError,
  PersistentSubscriptionExistsError,
  type PersistentSubscriptionToAllResolvedEvent,
  persistentSubscriptionToAllSettingsFromDefaults,
  type Position,
  START,
  STREAM_EXISTS,
  StreamDeletedError,
  StreamNotFoundError,
  streamNameFilter,
  WrongExpectedVersionError,
} from '@eventstore/db-client';
import { EventStoreDbDouble, type EventStoreDbDoubleOptions } from './eventstoredb-double';

/**
 * The double against the real client: the server behaviours the EventStoreDB adapter depends on,
 * checked where they are visible, on the client's side of the wire.
 */
describe('EventStoreDB double, as the real client sees it', () => {
  const doubles: EventStoreDbDouble[] = [];
  const clients: EventStoreDBClient[] = [];

  async function connect(options: EventStoreDbDoubleOptions = {}): Promise<{ client: EventStoreDBClient; double: EventStoreDbDouble }> {
    const double = new EventStoreDbDouble({ persistentSubscriptionTickMs: 50, ...options });
    doubles.push(double);
    const client = EventStoreDBClient.connectionString((await double.start()).connectionString);
    clients.push(client);
    return { client, double };
  }

  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.dispose()));
    await Promise.all(doubles.splice(0).map((double) => double.stop()));
  });

  describe('appends', () => {
    it.each([
      ['BatchAppend', true],
      ['Append', false],
    ])('answers a wrong expected version over %s so that the client throws with the actual revision', async (_path, batchAppend) => {
      const { client } = await connect({ batchAppend });
      await client.appendToStream('order-1', [event(), event(), event()], { expectedRevision: NO_STREAM });

      const error = await client.appendToStream('order-1', [event()], { expectedRevision: 0n }).catch((caught: unknown) => caught);
      const absent = await client
        .appendToStream('order-2', [event()], { expectedRevision: STREAM_EXISTS })
        .catch((caught: unknown) => caught);

      expect(error).toBeInstanceOf(WrongExpectedVersionError);
      expect(error).toMatchObject({ streamName: 'order-1', expectedVersion: 0n, actualVersion: 2n });
      expect(absent).toMatchObject({ streamName: 'order-2', expectedVersion: 'stream_exists', actualVersion: 'no_stream' });
    });

    it('recognises a retried write by its event ids, as the server does, and stores it once', async () => {
      const { client } = await connect();
      const batch = [event(), event()];
      const first = await client.appendToStream('order-1', batch, { expectedRevision: NO_STREAM });

      const sameExpectation = await client.appendToStream('order-1', batch, { expectedRevision: NO_STREAM });
      const withAny = await client.appendToStream('order-1', batch, { expectedRevision: ANY });

      // The repeat reports the revision and commit position of the stored write (both ends at its last event).
      const stored = {
        nextExpectedRevision: first.nextExpectedRevision,
        position: { commit: first.position!.commit, prepare: first.position!.commit },
      };
      expect(sameExpectation).toMatchObject(stored);
      expect(withAny).toMatchObject(stored);
      expect(await readIds(client, 'order-1')).toEqual(batch.map((e) => e.id));
    });

    it('reports positions that grow by bytes, with the commit position of the last event', async () => {
      const { client } = await connect();
      const result = await client.appendToStream('order-1', [event(), event()], { expectedRevision: NO_STREAM });
      const [first, second] = await readAll(client, 'order-1');

      expect(second!.position!.commit - first!.position!.commit).toBeGreaterThan(1n);
      expect(result.position!.commit).toBe(second!.position!.commit);
      // Within one write the prepare position is the write's first event, as the server reports it.
      expect(second!.position!.prepare).toBe(first!.position!.commit);
    });
  });

  describe('deleting streams', () => {
    it('soft-deletes with $tb metadata, reads the stream as absent, keeps its events in $all, and re-creates it', async () => {
      const { client } = await connect();
      const before = await lastPosition(client);
      const old = [event(), event(), event()];
      await client.appendToStream('order-1', old, { expectedRevision: NO_STREAM });

      await client.deleteStream('order-1');
      const read = await readIds(client, 'order-1').catch((caught: unknown) => caught);
      const deletedMetadata = await client.getStreamMetadata('order-1');
      const reborn = event();
      const written = await client.appendToStream('order-1', [reborn], { expectedRevision: NO_STREAM });
      const rebornMetadata = await client.getStreamMetadata('order-1');

      expect(read).toBeInstanceOf(StreamNotFoundError);
      expect(deletedMetadata.metadata?.truncateBefore).toBeGreaterThan(9e18);
      expect(written.nextExpectedRevision).toBe(3n);
      expect(rebornMetadata.metadata?.truncateBefore).toBe(3);
      expect(await readIds(client, 'order-1')).toEqual([reborn.id]);
      // $all: the deleted events stay until a scavenge; the re-creation metadata follows the new event.
      const log = (await readAllAfter(client, before)).map((e) => `${e.streamId}:${e.type}`);
      expect(log).toEqual([...old.map(() => 'order-1:Tested'), '$$order-1:$metadata', 'order-1:Tested', '$$order-1:$metadata']);
    });

    it('refuses to soft-delete a stream that was never written: wrong expected version, actual -1', async () => {
      const { client } = await connect();

      const error = await client.deleteStream('never-written').catch((caught: unknown) => caught);

      expect(error).toBeInstanceOf(WrongExpectedVersionError);
      expect(error).toMatchObject({ actualVersion: -1n });
    });

    it('answers stream_exists on a soft-deleted stream with StreamDeleted, and takes its old last revision as expected', async () => {
      const { client } = await connect();
      await client.appendToStream('order-1', [event(), event()], { expectedRevision: NO_STREAM });
      await client.deleteStream('order-1');

      const exists = await client
        .appendToStream('order-1', [event()], { expectedRevision: STREAM_EXISTS })
        .catch((caught: unknown) => caught);
      const written = await client.appendToStream('order-1', [event()], { expectedRevision: 1n });

      expect(exists).toBeInstanceOf(StreamDeletedError);
      expect(written.nextExpectedRevision).toBe(2n);
    });

    it('tombstones: the stream can no longer be read or written', async () => {
      const { client } = await connect();
      await client.appendToStream('order-1', [event()], { expectedRevision: NO_STREAM });

      await client.tombstoneStream('order-1');

      await expect(readIds(client, 'order-1')).rejects.toBeInstanceOf(StreamDeletedError);
      await expect(client.appendToStream('order-1', [event()])).rejects.toBeInstanceOf(StreamDeletedError);
    });
  });

  describe('$all', () => {
    it('starts with the system events of a fresh node', async () => {
      const { client } = await connect();
      const first = await readAllAfter(client, undefined);

      expect(first.length).toBeGreaterThan(0);
      expect(first.every((e) => e.streamId.startsWith('$'))).toBe(true);
    });

    it('sends a filtered subscription checkpoints over what its filter skips', async () => {
      const { client } = await connect();
      const checkpoints: Position[] = [];
      const subscription = client.subscribeToAll({
        fromPosition: START,
        filter: streamNameFilter({
          prefixes: ['wanted-'],
          checkpointReached: (_subscription, position) => void checkpoints.push(position),
        }),
      });
      const seen: string[] = [];
      subscription.on('data', (resolved) => seen.push(resolved.event!.streamId));
      for (let i = 0; i < 40; i++) await client.appendToStream(`other-${i}`, [event()]);
      await client.appendToStream('wanted-1', [event()]);

      await waitFor(() => seen.length === 1 && checkpoints.length > 0);
      await subscription.unsubscribe();

      expect(seen).toEqual(['wanted-1']);
    });
  });

  describe('persistent subscriptions to $all', () => {
    const settings = (changes: Parameters<typeof persistentSubscriptionToAllSettingsFromDefaults>[0] = {}) =>
      persistentSubscriptionToAllSettingsFromDefaults({ startFrom: START, ...changes });
    const work = { filter: streamNameFilter({ prefixes: ['work-'] }) };

    function member(client: EventStoreDBClient, group: string, bufferSize = 10) {
      const subscription = client.subscribeToPersistentSubscriptionToAll(group, { bufferSize });
      const received: PersistentSubscriptionToAllResolvedEvent[] = [];
      const errors: unknown[] = [];
      subscription.on('data', (resolved) => received.push(resolved));
      subscription.on('error', (error) => errors.push(error));
      return { subscription, received, errors, retryCounts: () => received.map((resolved) => resolved.retryCount) };
    }

    it('refuses to create a group twice, and members of a group that does not exist', async () => {
      const { client } = await connect();
      await client.createPersistentSubscriptionToAll('workers', settings(), work);

      await expect(client.createPersistentSubscriptionToAll('workers', settings(), work)).rejects.toBeInstanceOf(
        PersistentSubscriptionExistsError,
      );
      const stranger = member(client, 'nobody');
      await waitFor(() => stranger.errors.length > 0);
      expect(stranger.errors[0]).toBeInstanceOf(PersistentSubscriptionDoesNotExistError);
    });

    it('delivers only the filtered streams, old and new, with the retry count, and parks after maxRetryCount', async () => {
      const { client } = await connect();
      await client.appendToStream('work-1', [event()]);
      await client.appendToStream('other-1', [event()]);
      await client.createPersistentSubscriptionToAll('workers', settings({ maxRetryCount: 1 }), work);
      const worker = member(client, 'workers');
      await waitFor(() => worker.received.length === 1);

      await worker.subscription.nack('retry', 'failed', worker.received[0]!);
      await waitFor(() => worker.received.length === 2);
      await worker.subscription.nack('retry', 'failed again', worker.received[1]!);
      await waitFor(async () => (await readAll(client, '$persistentsubscription-$all::workers-parked').catch(() => [])).length === 1);
      await client.appendToStream('work-2', [event()]);
      await waitFor(() => worker.received.length === 3);

      expect(worker.received.map((resolved) => resolved.event!.streamId)).toEqual(['work-1', 'work-1', 'work-2']);
      expect(worker.retryCounts()).toEqual([0, 1, 0]);
      const [parked] = await readAll(client, '$persistentsubscription-$all::workers-parked');
      expect(parked).toMatchObject({ type: '$>', streamId: '$persistentsubscription-$all::workers-parked' });
      expect(Buffer.from(parked!.data as Uint8Array).toString()).toBe('0@work-1');
    });

    it('retries what a member did not settle in time, and what a member held when it left', async () => {
      const { client } = await connect();
      await client.appendToStream('work-1', [event()]);
      await client.createPersistentSubscriptionToAll('workers', settings({ messageTimeout: 100 }), work);
      const first = member(client, 'workers');
      await waitFor(() => first.received.length === 2); // offered, timed out, offered again

      await first.subscription.unsubscribe();
      const second = member(client, 'workers');
      await waitFor(() => second.received.length >= 1);

      expect(first.retryCounts()).toEqual([0, 1]);
      expect(second.retryCounts()[0]).toBe(2);
    });

    it('does not offer again what a member acknowledged just before it left', async () => {
      const { client } = await connect();
      await client.appendToStream('work-1', [event(), event(), event()]);
      await client.createPersistentSubscriptionToAll('workers', settings(), work);
      const first = member(client, 'workers');
      await waitFor(() => first.received.length === 3);

      await first.subscription.ack(...first.received);
      await first.subscription.unsubscribe();
      const second = member(client, 'workers');
      await sleep(300);

      expect(second.received).toEqual([]);
    });

    it('checkpoints the group to its checkpoint stream, never past an unsettled event', async () => {
      const { client } = await connect();
      await client.appendToStream('work-1', [event(), event()]);
      await client.createPersistentSubscriptionToAll('workers', settings({ checkPointAfter: 0, checkPointLowerBound: 1 }), work);
      const worker = member(client, 'workers');
      await waitFor(() => worker.received.length === 2);
      const [first, second] = worker.received.map((resolved) => resolved.event!.position!.commit);
      const checkpoints = async () =>
        (await readAll(client, '$persistentsubscription-$all::workers-checkpoint').catch(() => [])).map((e) => {
          expect(e.type).toBe('$SubscriptionCheckpoint');
          return BigInt(/^C:(\d+)\/P:\1$/.exec(e.data as string)![1]!);
        });

      await worker.subscription.ack(worker.received[1]!);
      await sleep(200);
      const whileFirstUnsettled = await checkpoints();
      await worker.subscription.ack(worker.received[0]!);
      await waitFor(async () => (await checkpoints()).some((position) => position >= second!));

      expect(whileFirstUnsettled.length).toBeGreaterThan(0);
      expect(whileFirstUnsettled.every((position) => position < first!)).toBe(true);
    });

    it('round robin: a timed-out event goes first to the next member in the queue, which may be the one that timed out', async () => {
      // The server frees a member's slot when it retries the event that member held, and its round
      // robin queue still starts with that member: the first retry goes back to it.
      const { client } = await connect();
      await client.appendToStream('work-1', [event()]);
      await client.createPersistentSubscriptionToAll('workers', settings({ messageTimeout: 100 }), work);
      const slow = member(client, 'workers', 1);
      await waitFor(() => slow.received.length === 1);
      const other = member(client, 'workers', 1);

      await waitFor(() => other.received.length === 1);

      expect(slow.retryCounts()).toEqual([0, 1]);
      expect(other.retryCounts()).toEqual([2]);
    });
  });
});

function event() {
  return jsonEvent({ id: randomUUID(), type: 'Tested', data: { at: Date.now() } });
}

async function readIds(client: EventStoreDBClient, stream: string): Promise<string[]> {
  return (await readAll(client, stream)).map((e) => e.id);
}

async function readAll(client: EventStoreDBClient, stream: string) {
  const events = [];
  for await (const resolved of client.readStream(stream, { direction: FORWARDS, fromRevision: START })) events.push(resolved.event!);
  return events;
}

async function lastPosition(client: EventStoreDBClient): Promise<Position> {
  const all = await readAllAfter(client, undefined);
  return all[all.length - 1]!.position!;
}

async function readAllAfter(client: EventStoreDBClient, after: Position | undefined) {
  const events = [];
  for await (const resolved of client.readAll({ fromPosition: after ?? START })) {
    if (after && resolved.event!.position!.commit <= after.commit) continue;
    events.push(resolved.event!);
  }
  return events;
}

async function waitFor(condition: () => boolean | Promise<boolean>, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`Condition not met within ${timeoutMs} ms`);
    await sleep(10);
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
