import { describeEventStoreContract, newEvent, sleep, streamName, waitFor } from '../event-store.contract';
import type { RecordedEvent } from '../event-store.port';
import { EventStoreDbEventStore } from './eventstoredb-event-store';
import { EventStoreDbDouble } from './testing/eventstoredb-double';

/**
 * The EventStoreDB adapter with the real client, over real gRPC, against the wire-level double of
 * the server (`testing/`). The double keeps the server's clock tick (1 s) for message timeouts, so
 * timings here are those of a real server.
 */
describe('EventStoreDB adapter over the gRPC double', () => {
  // One double for the file; every test gets its own client, as the contract wants a fresh store.
  // Stats events every 100 ms put system events between the tests' own, as a real node's do.
  const double = new EventStoreDbDouble({ statsPeriodMs: 100 });
  let connectionString = '';

  beforeAll(async () => {
    ({ connectionString } = await double.start());
  });

  afterAll(async () => {
    await double.stop();
  });

  describeEventStoreContract('EventStoreDB adapter over the gRPC double', async () => {
    const store = EventStoreDbEventStore.fromConnectionString(connectionString);
    return { store, dispose: () => store.close() };
  });

  describe('beyond the contract', () => {
    const opened: EventStoreDbEventStore[] = [];
    const open = (to = connectionString) => {
      const store = EventStoreDbEventStore.fromConnectionString(to);
      opened.push(store);
      return store;
    };

    afterEach(async () => {
      await Promise.all(opened.splice(0).map((store) => store.close()));
    });

    it('appends in one round trip to a new stream, and in two (the tail, then the append) with an expected revision', async () => {
      const store = open();
      const stream = streamName('round-trips');
      // The client's first call opens the connection and asks the server's features: not counted.
      await store.readStream(streamName('warm-up'));
      const counted = async (append: () => Promise<unknown>) => {
        const before = { ...double.roundTrips };
        await append();
        return { reads: double.roundTrips.reads - before.reads, appends: double.roundTrips.appends - before.appends };
      };
      const batch = [newEvent(), newEvent()];

      expect(await counted(() => store.appendToStream(stream, batch, { expectedRevision: 'no_stream' }))).toEqual({ reads: 0, appends: 1 });
      // The server itself recognises the repeat with the same expected revision.
      expect(await counted(() => store.appendToStream(stream, batch, { expectedRevision: 'no_stream' }))).toEqual({ reads: 0, appends: 1 });
      expect(await counted(() => store.appendToStream(stream, [newEvent()], { expectedRevision: 1 }))).toEqual({ reads: 1, appends: 1 });
      // A late repeat is answered from the tail, without writing.
      expect(await counted(() => store.appendToStream(stream, batch, { expectedRevision: 2 }))).toEqual({ reads: 1, appends: 0 });
      expect(await store.readStream(stream)).toHaveLength(3);
    });

    it('does not hand a consumer group the events of a stream deleted since, and settles them', async () => {
      const store = open();
      const prefix = `${streamName('work')}-`;
      const [gone, kept] = [newEvent(), newEvent()];
      await store.appendToStream(`${prefix}gone`, [gone], { expectedRevision: 'no_stream' });
      await store.appendToStream(`${prefix}kept`, [kept], { expectedRevision: 'no_stream' });
      await store.deleteStream(`${prefix}gone`);
      const group = { group: `group-${prefix}`, streamPrefix: prefix, maxInFlight: 2, messageTimeoutMs: 1_000, maxRetries: 1 };
      const handled: string[] = [];

      const member = store.joinConsumerGroup({ ...group, onEvent: async (event) => void handled.push(event.id) });
      await waitFor(() => handled.length === 1);
      await sleep(300);
      await member.stop();
      const later: string[] = [];
      const next = store.joinConsumerGroup({ ...group, onEvent: async (event) => void later.push(event.id) });
      await sleep(1_500);
      await next.stop();

      expect(handled).toEqual([kept.id]);
      expect(later).toEqual([]);
    });

    it('offers a timed-out event again even with maxRetries 0: only handler failures lead to parking', async () => {
      // With the server's own maxRetryCount at 0, the first timeout would park the event silently.
      const store = open();
      const prefix = `${streamName('work')}-`;
      const stuck = newEvent();
      await store.appendToStream(`${prefix}a`, [stuck], { expectedRevision: 'no_stream' });
      const group = { group: `group-${prefix}`, streamPrefix: prefix, maxInFlight: 1, messageTimeoutMs: 200, maxRetries: 0 };
      let release = () => {};
      const released = new Promise<void>((resolve) => (release = resolve));
      const [hung, rescued, parked]: number[][] = [[], [], []];
      store.joinConsumerGroup({
        ...group,
        onEvent: async (_event, attempt) => {
          hung.push(attempt);
          await released;
        },
      });
      await waitFor(() => hung.length === 1);
      store.joinConsumerGroup({
        ...group,
        onEvent: async (_event, attempt) => void rescued.push(attempt),
        onParked: () => void parked.push(1),
      });

      await waitFor(() => rescued.length === 1, 10_000).finally(release);

      expect(rescued[0]).toBeGreaterThan(1);
      expect(parked).toEqual([]);
    });

    it('ends a consumer group membership and a subscription with onError when the server goes away', async () => {
      const own = new EventStoreDbDouble();
      const store = open((await own.start()).connectionString);
      const prefix = `${streamName('work')}-`;
      await store.appendToStream(`${prefix}a`, [newEvent()], { expectedRevision: 'no_stream' });
      const [handled, delivered]: [RecordedEvent[], RecordedEvent[]] = [[], []];
      const errors: unknown[] = [];
      store.joinConsumerGroup({
        group: 'workers',
        streamPrefix: prefix,
        maxInFlight: 1,
        messageTimeoutMs: 1_000,
        maxRetries: 1,
        onEvent: async (event) => void handled.push(event),
        onError: (error) => errors.push(error),
      });
      store.subscribeToAll({ onEvent: (event) => void delivered.push(event), onError: (error) => errors.push(error) });
      await waitFor(() => handled.length === 1 && delivered.length === 1);

      await own.stop();

      await waitFor(() => errors.length === 2);
    });
  });
});
