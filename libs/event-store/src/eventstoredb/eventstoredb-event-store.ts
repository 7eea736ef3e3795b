import {
  type AllStreamResolvedEvent,
  type AppendResult as DbAppendResult,
  type AllStreamSubscription,
  BACKWARDS,
  END,
  EventStoreDBClient,
  FORWARDS,
  jsonEvent,
  type ResolvedEvent,
  START,
  StreamDeletedError,
  StreamNotFoundError,
  WrongExpectedVersionError,
  eventTypeFilter,
} from '@eventstore/db-client';
import { checkConsumerGroupOptions } from '../consumer-group-options';
import {
  type AppendResult,
  type ConsumerGroupOptions,
  type EventStore,
  type ExpectedRevision,
  type NewEvent,
  type ReadAllOptions,
  type ReadStreamOptions,
  type RecordedEvent,
  type SubscribeToAllOptions,
  type Subscription,
  WrongExpectedRevisionError,
} from '../event-store.port';
import { checkedMaxCount, checkedNonNegativeInteger } from '../read-options';
import { reportSubscriptionDeath } from '../subscription-errors';
import { prepareAppend } from '../validate-append';
import { DeletedStreamsFilter } from './deleted-streams-filter';
import { EventStoreDbGroupMember } from './eventstoredb-consumer-group';
import {
  fromDbCurrentRevision,
  isSystemEvent,
  metadataTarget,
  toDbExpectedRevision,
  toDbPosition,
  toRecordedEvent,
} from './eventstoredb-mapping';

/**
 * Subscriptions let through our own events and `$metadata` ones: the latter tell the deleted-stream
 * filter that a stream was deleted or re-created. Everything else starting with `$` stays on the server.
 */
const USER_AND_METADATA_EVENT_TYPES = eventTypeFilter({ regex: '^(?:[^$].*|\\$metadata)$' });

interface StreamIds {
  lastRevision: number | null;
  positionById: Map<string, number>;
}

/**
 * The event store over EventStoreDB (or KurrentDB). Mostly a translation of the client's calls, with
 * these additions the port needs and the server does not give:
 * - Idempotency by event id in the stream's tail (its last TAIL_EVENTS events). EventStoreDB only
 *   recognises a retry that uses the same expected revision, so a worker that re-reads and
 *   re-appends would store its result twice. An append with an expected revision therefore reads
 *   the tail's ids first (two round trips); `no_stream` leans on the server's own check (one round
 *   trip) and reads the tail only when the server says the stream exists.
 * - `readAll` and subscriptions hide deleted streams' events, which `$all` keeps until a scavenge.
 * - A deleted stream is absent for expected revisions too (the server still knows its old revisions).
 * - `AppendResult.position` is the append's commit position, the last event's position in `$all`.
 * - Consumer groups are persistent subscriptions to `$all` (`eventstoredb-consumer-group.ts`).
 *
 * `npm test` runs this adapter against a wire-level double of the server (`testing/`);
 * `npm run test:servers` runs it against a real one.
 */
export class EventStoreDbEventStore implements EventStore {
  private readonly subscriptions = new Set<Subscription>();

  constructor(private readonly client: EventStoreDBClient) {}

  static fromConnectionString(connectionString: string): EventStoreDbEventStore {
    return new EventStoreDbEventStore(EventStoreDBClient.connectionString(connectionString));
  }

  async appendToStream(streamName: string, events: NewEvent[], options: { expectedRevision: ExpectedRevision }): Promise<AppendResult> {
    const expectedRevision = options.expectedRevision;
    const prepared = prepareAppend(streamName, events, expectedRevision);
    if (expectedRevision === 'no_stream') {
      // One round trip: against an existing stream the server compares the batch's ids with its
      // events from the first one and answers a repeat as a success; anything else is a conflict,
      // which may still be a late repeat, told by the tail.
      try {
        return await this.write(streamName, prepared, expectedRevision);
      } catch (error) {
        if (!(error instanceof WrongExpectedRevisionError)) throw error;
        const repeat = wholeRepeat(await this.readTailIds(streamName), prepared);
        if (repeat) return repeat;
        throw error;
      }
    }
    // The server looks for the batch's ids only after the expected revision (and, for `any`, in a
    // bounded cache): a worker that re-read the stream after its first append went through would
    // store its events twice. The stream's tail says whether they are already there.
    const before = await this.readTailIds(streamName);
    const repeat = wholeRepeat(before, prepared);
    if (repeat) return repeat;

    const fresh = prepared.filter((event) => !before.positionById.has(event.id));
    // A deleted stream reads as absent, and the port treats it as absent. The server does not: it
    // accepts the deleted stream's last revision as expected revision (and reports it as the actual
    // one), and answers stream_exists with StreamDeleted. So an absent stream is checked here.
    if (before.lastRevision === null && (typeof expectedRevision === 'number' || expectedRevision === 'stream_exists')) {
      throw new WrongExpectedRevisionError(streamName, expectedRevision, 'no_stream');
    }
    try {
      return await this.write(streamName, fresh, expectedRevision);
    } catch (error) {
      if (!(error instanceof WrongExpectedRevisionError)) throw error;
      // Another delivery of the same work may have stored this very batch in the meantime.
      const retryRepeat = wholeRepeat(await this.readTailIds(streamName), prepared);
      if (retryRepeat) return retryRepeat;
      throw error;
    }
  }

  /**
   * The append itself, one round trip. The answer's commit position is the last event's position
   * (each event of a gRPC append is committed on its own), the very number `readAll` reports for it.
   */
  private async write(streamName: string, events: NewEvent[], expectedRevision: ExpectedRevision): Promise<AppendResult> {
    try {
      const written = await this.client.appendToStream(
        streamName,
        events.map((event) => jsonEvent({ id: event.id, type: event.type, data: event.data, metadata: event.metadata ?? {} })),
        { expectedRevision: toDbExpectedRevision(expectedRevision) },
      );
      return { nextExpectedRevision: Number(written.nextExpectedRevision), position: commitPositionOf(written) };
    } catch (error) {
      // The stream was deleted since it was read: for the port it no longer exists.
      if (error instanceof StreamDeletedError) throw new WrongExpectedRevisionError(streamName, expectedRevision, 'no_stream');
      if (error instanceof WrongExpectedVersionError) {
        throw new WrongExpectedRevisionError(streamName, expectedRevision, fromDbCurrentRevision(error.actualVersion));
      }
      throw error;
    }
  }

  async readStream(streamName: string, options: ReadStreamOptions = {}): Promise<RecordedEvent[]> {
    const maxCount = checkedMaxCount(options.maxCount);
    const fromRevision = checkedNonNegativeInteger('fromRevision', options.fromRevision);
    if (maxCount === 0) return [];
    const backwards = options.direction === 'backwards';
    const reading = this.client.readStream(streamName, {
      direction: backwards ? BACKWARDS : FORWARDS,
      fromRevision: fromRevision !== undefined ? BigInt(fromRevision) : backwards ? END : START,
      maxCount: maxCount ?? Number.MAX_SAFE_INTEGER,
    });
    const events: RecordedEvent[] = [];
    try {
      for await (const resolved of reading) {
        if (resolved.event) events.push(toRecordedEvent(resolved.event));
      }
    } catch (error) {
      if (error instanceof StreamNotFoundError || error instanceof StreamDeletedError) return [];
      throw error;
    }
    return events;
  }

  async streamRevision(streamName: string): Promise<number | null> {
    const [last] = await this.readStream(streamName, { direction: 'backwards', maxCount: 1 });
    return last?.revision ?? null;
  }

  async lastPosition(): Promise<number> {
    let last = 0;
    // Read to the end (one record) rather than leaving the loop early: an abandoned read keeps its
    // call open, and the client's dispose() then waits for it.
    for await (const resolved of this.client.readAll({ direction: BACKWARDS, fromPosition: END, maxCount: 1 })) {
      const position = resolved.event?.position?.commit;
      if (position !== undefined) last = Math.max(last, Number(position));
    }
    return last;
  }

  async readAll(options: ReadAllOptions = {}): Promise<RecordedEvent[]> {
    const maxCount = checkedMaxCount(options.maxCount) ?? Number.POSITIVE_INFINITY;
    const afterPosition = checkedNonNegativeInteger('afterPosition', options.afterPosition);
    if (maxCount === 0) return [];
    const reading = this.client.readAll({
      direction: FORWARDS,
      fromPosition: afterPosition === undefined ? START : toDbPosition(afterPosition),
    });
    const visible = new VisibleEvents(this.deletedStreamsFilter(), afterPosition);
    const events: RecordedEvent[] = [];
    let readToTheEnd = false;
    try {
      for await (const resolved of reading) {
        const event = await visible.select(resolved);
        if (!event) continue;
        events.push(event);
        // System events are filtered here, not on the server, so the read is open-ended: stop it.
        if (events.length >= maxCount) return events;
      }
      readToTheEnd = true;
      return events;
    } finally {
      if (!readToTheEnd) await reading.cancel();
    }
  }

  subscribeToAll(options: SubscribeToAllOptions): Subscription {
    const afterPosition = checkedNonNegativeInteger('afterPosition', options.afterPosition);
    const dbSubscription = this.client.subscribeToAll({
      fromPosition: afterPosition === undefined ? START : toDbPosition(afterPosition),
      filter: USER_AND_METADATA_EVENT_TYPES,
    });
    const subscription = new EventStoreDbSubscription(
      dbSubscription,
      new VisibleEvents(this.deletedStreamsFilter(), afterPosition),
      options,
      (ended) => this.subscriptions.delete(ended),
    );
    this.subscriptions.add(subscription);
    return subscription;
  }

  /**
   * A soft delete: the name can be used again, and revisions then continue after the deleted ones.
   * Deleting a stream that does not exist is not an error.
   */
  async deleteStream(streamName: string): Promise<void> {
    try {
      await this.client.deleteStream(streamName);
    } catch (error) {
      // The server refuses to soft-delete a stream that has neither events nor metadata with a wrong
      // expected version (actual -1), even when the expected revision is `any`; a tombstoned
      // stream answers StreamDeleted. Either way there is nothing left to delete.
      if (error instanceof WrongExpectedVersionError || error instanceof StreamNotFoundError || error instanceof StreamDeletedError) return;
      throw error;
    }
  }

  /**
   * An EventStoreDB persistent subscription to `$all`, filtered on the stream prefix: the server
   * shares the events among the members, retries and parks; see `EventStoreDbGroupMember`.
   */
  joinConsumerGroup(options: ConsumerGroupOptions): Subscription {
    checkConsumerGroupOptions(options);
    const member = new EventStoreDbGroupMember(
      this.client,
      options,
      // Read afresh for each event: the `$metadata` events that would tell a cache about a deletion
      // do not pass the group's stream filter.
      async (streamName, revision) => revision >= (await this.truncateBeforeOf(streamName)),
      (ended) => this.subscriptions.delete(ended),
    );
    this.subscriptions.add(member);
    return member;
  }

  async close(): Promise<void> {
    await Promise.all([...this.subscriptions].map((subscription) => subscription.stop()));
    await this.client.dispose();
  }

  /** The ids of the stream's last TAIL_EVENTS events and its last revision: where a repeat is looked for. */
  private async readTailIds(streamName: string): Promise<StreamIds> {
    const newestFirst = await this.readStream(streamName, { direction: 'backwards', maxCount: TAIL_EVENTS });
    return {
      lastRevision: newestFirst.length === 0 ? null : newestFirst[0]!.revision,
      positionById: new Map(newestFirst.map((event) => [event.id, event.position])),
    };
  }

  private deletedStreamsFilter(): DeletedStreamsFilter {
    return new DeletedStreamsFilter((streamName) => this.truncateBeforeOf(streamName));
  }

  /** The stream's `$tb`: 0 when it has none; the deleted marker (long.MaxValue) reads as a huge number. */
  private async truncateBeforeOf(streamName: string): Promise<number> {
    const { metadata } = await this.client.getStreamMetadata(streamName);
    const truncateBefore = metadata?.truncateBefore;
    if (typeof truncateBefore === 'number') return truncateBefore;
    return truncateBefore === END ? Number.POSITIVE_INFINITY : 0;
  }
}

/**
 * How far back a repeated batch is looked for. Streams are small by design (a project's, an
 * account's, a work order's checks); a retry comes within minutes of the first try, long before a
 * stream grows by this many events.
 */
const TAIL_EVENTS = 500;

function commitPositionOf(written: DbAppendResult): number {
  if (!written.position) throw new Error('EventStoreDB confirmed the append but gave no position');
  return Number(written.position.commit);
}

/** The port's answer when every event of the batch is already in the stream, else undefined. */
function wholeRepeat(stream: StreamIds, events: NewEvent[]): AppendResult | undefined {
  if (stream.lastRevision === null || !events.every((event) => stream.positionById.has(event.id))) return undefined;
  const position = Math.max(...events.map((event) => stream.positionById.get(event.id)!));
  return { nextExpectedRevision: stream.lastRevision, position };
}

/** Turns `$all` entries into the port's events: no system events, no deleted ones, nothing at or before the checkpoint. */
class VisibleEvents {
  constructor(
    private readonly deletedStreams: DeletedStreamsFilter,
    private readonly afterPosition: number | undefined,
  ) {}

  async select(resolved: AllStreamResolvedEvent | ResolvedEvent): Promise<RecordedEvent | undefined> {
    const event = resolved.event;
    if (!event) return undefined;
    const changedStream = metadataTarget(event);
    if (changedStream !== undefined) {
      this.deletedStreams.forget(changedStream);
      return undefined;
    }
    if (isSystemEvent(event)) return undefined;
    const recorded = toRecordedEvent(event);
    // The server's start position may be inclusive; the port's checkpoint is exclusive.
    if (this.afterPosition !== undefined && recorded.position <= this.afterPosition) return undefined;
    if (!(await this.deletedStreams.isVisible(recorded.streamName, recorded.revision))) return undefined;
    return recorded;
  }
}

class EventStoreDbSubscription implements Subscription {
  private stopRequested = false;
  private readonly finished: Promise<void>;

  constructor(
    private readonly dbSubscription: AllStreamSubscription,
    private readonly visible: VisibleEvents,
    private readonly options: SubscribeToAllOptions,
    private readonly onEnded: (subscription: EventStoreDbSubscription) => void,
  ) {
    this.finished = this.follow().finally(() => this.onEnded(this));
  }

  async stop(): Promise<void> {
    this.stopRequested = true;
    await this.end();
    await this.finished;
  }

  private async follow(): Promise<void> {
    try {
      // for-await pulls the next event only after the handler settled: one call at a time, in order.
      for await (const resolved of this.dbSubscription) {
        if (this.stopRequested) break;
        const event = await this.visible.select(resolved);
        if (event && !this.stopRequested) await this.options.onEvent(event);
      }
      if (!this.stopRequested) throw new Error('EventStoreDB ended the subscription');
    } catch (error) {
      if (this.stopRequested) return;
      this.stopRequested = true;
      await this.end();
      reportSubscriptionDeath(this.options, error);
    }
  }

  private async end(): Promise<void> {
    try {
      await this.dbSubscription.unsubscribe();
    } catch {
      // The call may already be dead (that may be why we are ending); it is over either way.
    } finally {
      // Cancelling the call does not always end the readable; destroying it does, so follow() returns.
      this.dbSubscription.destroy();
    }
  }
}
