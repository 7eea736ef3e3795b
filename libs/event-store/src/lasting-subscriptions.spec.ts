import { randomUUID } from 'node:crypto';
import type { ConsumerGroupOptions, EventStore, RecordedEvent, Subscription } from './event-store.port';
import { followAllForGood, joinGroupForGood } from './lasting-subscriptions';
import { SqliteEventStore } from './sqlite/sqlite-event-store';
import { waitFor } from '@rank/platform/testing/wait-for';

const append = (store: EventStore, stream: string, ...types: string[]) =>
  store.appendToStream(
    stream,
    types.map((type) => ({ id: randomUUID(), type, data: {} })),
    { expectedRevision: 'any' },
  );

describe('lasting subscriptions', () => {
  let store: SqliteEventStore;
  let subscription: Subscription | undefined;
  beforeEach(() => {
    store = new SqliteEventStore(':memory:', { pollIntervalMs: 5 });
  });
  afterEach(async () => {
    await subscription?.stop();
    subscription = undefined;
    await store.close();
  });

  it('follows the log again after it died, from the event after the last one handled: none skipped, none handled twice', async () => {
    await append(store, 'work-1', 'First', 'Poisoned', 'Third');
    const handled: string[] = [];
    const lost: number[] = [];
    let failOnce = true;
    subscription = followAllForGood(store, {
      onEvent: (event) => {
        if (event.type === 'Poisoned' && failOnce) {
          failOnce = false;
          throw new Error('the store failed under the handler');
        }
        handled.push(event.type);
      },
      onLost: (_error, againInMs) => lost.push(againInMs),
      firstPauseMs: 10,
    });
    await waitFor(
      async () => handled,
      (types) => types.length >= 3,
      5_000,
    );
    await append(store, 'work-1', 'Fourth');
    await waitFor(
      async () => handled,
      (types) => types.length >= 4,
      5_000,
    );
    // Before: the subscription died with the handler's error and nothing after it was ever handled.
    expect(handled).toEqual(['First', 'Poisoned', 'Third', 'Fourth']);
    expect(lost).toEqual([10]);
  });

  it('doubles the pause while it keeps failing, up to the longest, and stops for good when told', async () => {
    const lost: number[] = [];
    await append(store, 'work-1', 'Poisoned');
    subscription = followAllForGood(store, {
      onEvent: () => {
        throw new Error('always');
      },
      onLost: (_error, againInMs) => lost.push(againInMs),
      firstPauseMs: 5,
      longestPauseMs: 20,
    });
    await waitFor(
      async () => lost.length,
      (count) => count >= 5,
      5_000,
    );
    expect(lost.slice(0, 5)).toEqual([5, 10, 20, 20, 20]);
    await subscription.stop();
    const after = lost.length;
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(lost.length).toBe(after);
  });

  it('joins the consumer group again after the membership died, and gets the work appended since', async () => {
    // The SQLite group dies only with its file; this store lets the test end a membership as the
    // EventStoreDB adapter does when the server drops its connection: it leaves, then reports.
    const deaths: Array<() => Promise<void>> = [];
    const dropping: EventStore = Object.create(store, {
      joinConsumerGroup: {
        value: (options: ConsumerGroupOptions) => {
          const member = store.joinConsumerGroup(options);
          deaths.push(async () => {
            await member.stop();
            options.onError?.(new Error('14 UNAVAILABLE: Connection dropped'));
          });
          return member;
        },
      },
    });
    const handled: RecordedEvent[] = [];
    const lost: number[] = [];
    subscription = joinGroupForGood(dropping, {
      group: 'workers',
      streamPrefix: 'work-',
      maxInFlight: 1,
      messageTimeoutMs: 30_000,
      maxRetries: 1,
      onEvent: async (event) => void handled.push(event),
      onLost: (_error, againInMs) => lost.push(againInMs),
      firstPauseMs: 10,
    });
    await append(store, 'work-1', 'Before');
    await waitFor(
      async () => handled.length,
      (count) => count === 1,
      5_000,
    );
    await deaths[0]!();
    await append(store, 'work-2', 'After');
    // Before: the member logged its death and the work appended after it was never taken.
    await waitFor(
      async () => handled.map((e) => e.type),
      (types) => types.includes('After'),
      5_000,
    );
    expect(handled.map((e) => e.type)).toEqual(['Before', 'After']);
    expect(lost).toEqual([10]);
    expect(deaths).toHaveLength(2);
  });
});
