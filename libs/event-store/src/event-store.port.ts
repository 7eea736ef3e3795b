/**
 * The event store port: everything the rest of the system needs from an event store, and nothing
 * more. Two adapters implement it: SQLite (embedded, the default) and EventStoreDB (distributed).
 * Both must pass the same contract suite (`event-store.contract.ts`).
 */

/** JSON-serialisable payload of an event. */
export type EventData = Record<string, unknown>;

/** An event about to be appended. `id` is a UUID; appending the same id twice stores it once. */
export interface NewEvent<Type extends string = string, Data extends EventData = EventData> {
  id: string;
  type: Type;
  data: Data;
  metadata?: EventData;
}

/** An event as stored. `revision` counts from 0 within its stream; `position` orders the whole log. */
export interface RecordedEvent<Type extends string = string, Data extends EventData = EventData> {
  id: string;
  streamName: string;
  revision: number;
  position: number;
  type: Type;
  data: Data;
  metadata: EventData;
  recordedAt: Date;
}

/**
 * What the writer believes about the stream before appending:
 * a revision number (the last event's revision), `no_stream`, `stream_exists` or `any`.
 */
export type ExpectedRevision = number | 'no_stream' | 'stream_exists' | 'any';

export interface AppendResult {
  /** Revision of the last event of the stream after the append. */
  nextExpectedRevision: number;
  /** Log position of the last appended event (or of the existing one, for an idempotent repeat). */
  position: number;
}

export interface ReadStreamOptions {
  direction?: 'forwards' | 'backwards';
  /** Inclusive starting revision; forwards default 0, backwards default the end. */
  fromRevision?: number;
  maxCount?: number;
}

export interface ReadAllOptions {
  /** Exclusive: events strictly after this log position. Default: from the start. */
  afterPosition?: number;
  maxCount?: number;
}

export interface SubscribeToAllOptions {
  /** Exclusive checkpoint: deliver events strictly after this position. Default: from the start. */
  afterPosition?: number;
  /** Called for each event in log order; the next event waits until the promise settles. */
  onEvent: (event: RecordedEvent) => Promise<void> | void;
  /** Called if the subscription dies (the handler threw, or the store failed). */
  onError?: (error: unknown) => void;
}

export interface Subscription {
  /** Stops delivering; resolves when the in-flight handler call (if any) has finished. */
  stop(): Promise<void>;
}

/**
 * One member of a consumer group over the work events of the log: the events of the streams whose
 * name starts with `streamPrefix`. The members of a group, in any process, share those events (each is
 * handed to one member at a time), so adding members adds throughput. This is EventStoreDB's
 * persistent subscription (competing consumers); the SQLite adapter gives the same guarantees with
 * leases in its file.
 *
 * Delivery is at-least-once: an event is settled when `onEvent` resolves (ack). If it throws, the
 * event is offered again (to any member), up to `maxRetries` more times, then parked (never offered
 * again). An event whose handler has not settled within `messageTimeoutMs`, or whose
 * member stopped or died, is offered again too, so the handler must be idempotent.
 */
export interface ConsumerGroupOptions {
  group: string;
  streamPrefix: string;
  /** Events this member handles at once. */
  maxInFlight: number;
  messageTimeoutMs: number;
  maxRetries: number;
  /** `attempt` counts from 1: how many times the group has offered this event, this one included. */
  onEvent: (event: RecordedEvent, attempt: number) => Promise<void>;
  /** Called when an event is parked after its last retry, with the handler's last error. */
  onParked?: (event: RecordedEvent, error: unknown) => void;
  /** Called if the membership dies (the store failed); the member no longer receives events. */
  onError?: (error: unknown) => void;
}

export interface EventStore {
  /**
   * Appends atomically, checking `expectedRevision` first (a mismatch throws
   * `WrongExpectedRevisionError`). Events whose id is already in the stream are not stored again:
   * a batch that is wholly a repeat succeeds without writing.
   * The batch must not be empty, ids must be UUIDs, and stream names and event types must not start
   * with `$` (EventStoreDB's system namespace); both adapters reject such appends the same way.
   */
  appendToStream(streamName: string, events: NewEvent[], options: { expectedRevision: ExpectedRevision }): Promise<AppendResult>;
  /** Reads a stream; an absent or deleted stream reads as an empty list. */
  readStream(streamName: string, options?: ReadStreamOptions): Promise<RecordedEvent[]>;
  /**
   * The stream's last revision, or null when it is absent or deleted: what `readStream` backwards
   * with maxCount 1 would say of it, without reading the event itself. A cached state is checked
   * against it on every load (authentication does so on every request), so it must stay cheap.
   */
  streamRevision(streamName: string): Promise<number | null>;
  /** Reads the whole log in order of position (system events excluded). */
  readAll(options?: ReadAllOptions): Promise<RecordedEvent[]>;
  /**
   * The log's last position, 0 when it is empty, in one cheap read: no `readAll` returns an event
   * after it (it may be a system record's, or a deleted event's, so an upper bound). It never moves
   * back, so a reader's checkpoint past it means the log was replaced. What a progress bar measures
   * against.
   */
  lastPosition(): Promise<number>;
  /** Catches up from the checkpoint, then keeps delivering new events as they are appended. */
  subscribeToAll(options: SubscribeToAllOptions): Subscription;
  /**
   * Joins a consumer group (creating the group on first use, starting from the beginning of the log).
   * A group keeps the prefix it was created with (SQLite refuses another; EventStoreDB keeps the old
   * filter). An event whose member dies while holding it is offered again without limit: only handler
   * failures count towards parking.
   * `stop()` stops taking events and resolves once the handlers under way have settled; events it
   * had not settled are offered to the other members.
   */
  joinConsumerGroup(options: ConsumerGroupOptions): Subscription;
  /**
   * Deletes a stream so that reads (stream and log) no longer return its events. The name can be
   * used again (`no_stream` or `any`); the new stream's revisions continue after the deleted ones,
   * as with EventStoreDB's soft delete. Deleting an absent stream does nothing.
   */
  deleteStream(streamName: string): Promise<void>;
  close(): Promise<void>;
}

/** The stream's actual revision differs from what the writer expected. */
export class WrongExpectedRevisionError extends Error {
  constructor(
    readonly streamName: string,
    readonly expected: ExpectedRevision,
    readonly actual: number | 'no_stream',
  ) {
    super(`Stream ${streamName}: expected revision ${String(expected)}, actual ${String(actual)}`);
    this.name = 'WrongExpectedRevisionError';
  }
}
