import Database from 'better-sqlite3';
import type { Statement } from 'better-sqlite3';
import {
  type AppendResult,
  type ConsumerGroupOptions,
  type EventData,
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
import { type ActualRevision, isExpectedRevisionMet } from '../expected-revision';
import { checkConsumerGroupOptions } from '../consumer-group-options';
import { checkedMaxCount, checkedNonNegativeInteger } from '../read-options';
import { prepareAppend } from '../validate-append';
import { PollingSubscription } from './polling-subscription';
import { SqliteConsumerGroups, SqliteGroupMember } from './sqlite-consumer-group';
import { prepareDatabase } from './sqlite-schema';

export interface SqliteEventStoreOptions {
  /** How often subscriptions look for events appended by other processes. Default 250 ms. */
  pollIntervalMs?: number;
  /** How long an append waits for another process's write lock before failing. Default 5,000 ms. */
  busyTimeoutMs?: number;
  /** Events a subscription reads per query while catching up. Default 500. */
  subscriptionBatchSize?: number;
  /** Source of `recordedAt`; injectable for tests. */
  clock?: () => Date;
}

interface EventRow {
  position: number;
  stream_name: string;
  revision: number;
  event_id: string;
  type: string;
  data: string;
  metadata: string;
  recorded_at: string;
}

/**
 * An event row as an array (better-sqlite3's raw mode), in the order of EVENT_COLUMNS: reading the
 * log this way is about a third cheaper than row objects, which a replay reads hundreds of thousands of.
 */
type EventColumns = [
  position: number,
  streamName: string,
  revision: number,
  eventId: string,
  type: string,
  data: string,
  metadata: string,
  recordedAt: string,
];
const EVENT_COLUMNS = 'position, stream_name, revision, event_id, type, data, metadata, recorded_at';

interface SerialisedEvent {
  id: string;
  type: string;
  data: string;
  metadata: string;
}

/** Reading "no limit" in SQLite's LIMIT clause. */
const NO_LIMIT = -1;
/** The revision memo is emptied when it holds this many streams: it serves the few read again and again. */
const MAX_KNOWN_REVISIONS = 10_000;
/** Appends and deletes by every connection of this process (a request may write through one and read through another in one turn). */
let writesInProcess = 0;

/**
 * The embedded event store: one SQLite file, shared safely by several processes (the server and an
 * operator's CLI, say).
 *
 * better-sqlite3 is synchronous, so every call blocks the event loop while SQLite works. That is
 * acceptable here because every query is an index range scan over small streams: reading a
 * 1,000-event stream takes about 3 ms and a single-event append about 0.3 ms, fsync included
 * (`bench/event-store-append.bench.ts`); an asynchronous driver would add a thread-pool hop to
 * each call and gain nothing, since SQLite admits one writer at a time anyway. The exception, reading the whole log, is paged: subscriptions read
 * in batches and yield to the event loop between them. And because no transaction ever spans an
 * `await`, one process can never hold the write lock while waiting for itself.
 *
 * Deleting a stream removes its events for good. Appending to the name again (`no_stream` or
 * `any`) starts a new stream whose revisions continue after the deleted ones, as in EventStoreDB.
 */
export class SqliteEventStore implements EventStore {
  private readonly db: Database.Database;
  private readonly clock: () => Date;
  private readonly pollIntervalMs: number;
  private readonly subscriptionBatchSize: number;
  private readonly subscriptions = new Set<PollingSubscription<EventColumns>>();
  private readonly groupMembers = new Set<SqliteGroupMember>();
  private readonly consumerGroups: SqliteConsumerGroups;
  private closed = false;

  private readonly selectLastRevision: Statement<[string], { last: number | null }>;
  private readonly selectLastPosition: Statement<[], { last: number | null }>;
  private readonly selectDeletedLastRevision: Statement<[string], { last_revision: number }>;
  private readonly selectExistingIds: Statement<[string, string], { event_id: string; position: number }>;
  private readonly insertEvent: Statement<[string, number, string, string, string, string, string]>;
  private readonly selectStreamForwards: Statement<[string, number, number], EventRow>;
  private readonly selectStreamBackwards: Statement<[string, number, number], EventRow>;
  private readonly selectAllAfter: Statement<[number, number], EventColumns>;
  private readonly rememberDeletedStream: Statement<[string, number]>;
  private readonly deleteStreamEvents: Statement<[string]>;
  private readonly selectDataVersion: Statement<[], number>;
  /**
   * Stream revisions read since the database last changed: `PRAGMA data_version` moves on every
   * commit by another connection, in this process or another, and `writesInProcess` on every write by
   * a connection of this process; while neither moved, a revision read before is still the revision.
   * An authenticated request checks two streams (account, workspace), so this halves its SQLite work
   * without letting a key revoked elsewhere pass: any commit since empties the memo.
   */
  private readonly knownRevisions = new Map<string, number | null>();
  private knownAt = { dataVersion: -1, writesInProcess: -1 };
  /**
   * `PRAGMA data_version` as read in this turn of the event loop. The read takes two file-lock
   * system calls (SQLite's shared-memory read mark), the dearest step of a stream check, and a
   * request's two stream checks fall in one turn. Reusing it there lets no commit elsewhere
   * pass unseen: every request handled in a turn was read off its socket before the turn began,
   * so before the read, and a commit by this process moves `writesInProcess` instead.
   */
  private turnDataVersion: number | undefined;
  private readonly endTurn = (): void => {
    this.turnDataVersion = undefined;
  };
  private readonly endTurnAfterTicks = (): void => process.nextTick(this.endTurn);

  /** @param filePath the database file (its directory must exist), or ':memory:' for a private in-memory store. */
  constructor(filePath: string, options: SqliteEventStoreOptions = {}) {
    this.clock = options.clock ?? (() => new Date());
    this.pollIntervalMs = options.pollIntervalMs ?? 250;
    this.subscriptionBatchSize = options.subscriptionBatchSize ?? 500;
    this.db = new Database(filePath);
    try {
      prepareDatabase(this.db, { busyTimeoutMs: options.busyTimeoutMs ?? 5000 });
    } catch (error) {
      this.db.close();
      throw error;
    }

    this.selectLastRevision = this.db.prepare('SELECT max(revision) AS last FROM events WHERE stream_name = ?');
    // Prepared once: the project detail asks for it on every request.
    // The highest position ever handed out (AUTOINCREMENT's), not the highest left: a deleted stream's
    // rows are gone, and the end of the log must not move back under a checkpoint past them.
    this.selectLastPosition = this.db.prepare("SELECT seq AS last FROM sqlite_sequence WHERE name = 'events'");
    this.selectDeletedLastRevision = this.db.prepare('SELECT last_revision FROM deleted_streams WHERE stream_name = ?');
    this.selectExistingIds = this.db.prepare(
      'SELECT event_id, position FROM events WHERE stream_name = ? AND event_id IN (SELECT value FROM json_each(?))',
    );
    this.insertEvent = this.db.prepare(
      `INSERT INTO events (stream_name, revision, event_id, type, data, metadata, recorded_at)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
    );
    this.selectStreamForwards = this.db.prepare(
      'SELECT * FROM events WHERE stream_name = ? AND revision >= ? ORDER BY revision ASC LIMIT ?',
    );
    this.selectStreamBackwards = this.db.prepare(
      'SELECT * FROM events WHERE stream_name = ? AND revision <= ? ORDER BY revision DESC LIMIT ?',
    );
    this.selectAllAfter = this.db
      .prepare<[number, number], EventColumns>(`SELECT ${EVENT_COLUMNS} FROM events WHERE position > ? ORDER BY position ASC LIMIT ?`)
      .raw(true);
    this.rememberDeletedStream = this.db.prepare(
      `INSERT INTO deleted_streams (stream_name, last_revision) VALUES (?, ?)
       ON CONFLICT (stream_name) DO UPDATE SET last_revision = excluded.last_revision`,
    );
    this.deleteStreamEvents = this.db.prepare('DELETE FROM events WHERE stream_name = ?');
    this.selectDataVersion = this.db.prepare<[], number>('PRAGMA data_version').pluck();
    const selectAtPositions = this.db.prepare<[string], EventRow>(
      'SELECT * FROM events WHERE position IN (SELECT value FROM json_each(?))',
    );
    this.consumerGroups = new SqliteConsumerGroups(this.db, (positions) =>
      selectAtPositions.all(JSON.stringify(positions)).map(toRecordedEvent),
    );
  }

  async appendToStream(streamName: string, events: NewEvent[], options: { expectedRevision: ExpectedRevision }): Promise<AppendResult> {
    this.assertOpen();
    const expectedRevision = options.expectedRevision;
    const prepared = prepareAppend(streamName, events, expectedRevision);
    // Serialise before taking the write lock, so a payload JSON cannot represent fails without it.
    const serialised = prepared.map(serialise);
    const recordedAt = this.clock().toISOString();

    // IMMEDIATE takes the write lock before the revision is read, so no other process can append
    // between the check and the insert.
    let outcome: ReturnType<SqliteEventStore['appendInTransaction']>;
    try {
      outcome = this.db.transaction(() => this.appendInTransaction(streamName, serialised, expectedRevision, recordedAt)).immediate();
    } finally {
      writesInProcess++;
    }
    if (outcome.wroteEvents) this.wakeSubscriptions();
    return outcome.result;
  }

  async readStream(streamName: string, options: ReadStreamOptions = {}): Promise<RecordedEvent[]> {
    this.assertOpen();
    const limit = checkedMaxCount(options.maxCount) ?? NO_LIMIT;
    const fromRevision = checkedNonNegativeInteger('fromRevision', options.fromRevision);
    const rows =
      options.direction === 'backwards'
        ? this.selectStreamBackwards.all(streamName, fromRevision ?? Number.MAX_SAFE_INTEGER, limit)
        : this.selectStreamForwards.all(streamName, fromRevision ?? 0, limit);
    return rows.map(toRecordedEvent);
  }

  async readAll(options: ReadAllOptions = {}): Promise<RecordedEvent[]> {
    this.assertOpen();
    const afterPosition = checkedNonNegativeInteger('afterPosition', options.afterPosition) ?? 0;
    return this.readAllAfter(afterPosition, checkedMaxCount(options.maxCount) ?? NO_LIMIT);
  }

  async streamRevision(streamName: string): Promise<number | null> {
    this.assertOpen();
    const dataVersion = this.dataVersionInTurn();
    if (
      dataVersion !== this.knownAt.dataVersion ||
      writesInProcess !== this.knownAt.writesInProcess ||
      this.knownRevisions.size >= MAX_KNOWN_REVISIONS
    ) {
      this.knownRevisions.clear();
      this.knownAt = { dataVersion, writesInProcess };
    }
    const known = this.knownRevisions.get(streamName);
    if (known !== undefined) return known;
    // Answered from the (stream_name, revision) index alone: no row, no JSON to parse.
    const revision = this.selectLastRevision.get(streamName)?.last ?? null;
    this.knownRevisions.set(streamName, revision);
    return revision;
  }

  /**
   * Read once per turn: the turn ends when the microtasks queued after the read have run (the
   * continuations of the request's awaits) and Node runs its next-tick queue, always before it goes
   * back to the event loop for more input.
   */
  private dataVersionInTurn(): number {
    if (this.turnDataVersion === undefined) {
      this.turnDataVersion = this.selectDataVersion.get()!;
      queueMicrotask(this.endTurnAfterTicks);
    }
    return this.turnDataVersion;
  }

  async lastPosition(): Promise<number> {
    this.assertOpen();
    return this.selectLastPosition.get()?.last ?? 0;
  }

  subscribeToAll(options: SubscribeToAllOptions): Subscription {
    this.assertOpen();
    checkedNonNegativeInteger('afterPosition', options.afterPosition);
    const subscription = new PollingSubscription(options, {
      readBatch: (afterPosition, maxCount) => this.selectAllAfter.all(afterPosition, maxCount),
      decode: fromEventColumns,
      batchSize: this.subscriptionBatchSize,
      pollIntervalMs: this.pollIntervalMs,
      onEnded: (ended) => this.subscriptions.delete(ended),
    });
    this.subscriptions.add(subscription);
    return subscription;
  }

  joinConsumerGroup(options: ConsumerGroupOptions): Subscription {
    this.assertOpen();
    checkConsumerGroupOptions(options);
    const member = new SqliteGroupMember(options, {
      groups: this.consumerGroups,
      pollIntervalMs: this.pollIntervalMs,
      onEnded: (ended) => this.groupMembers.delete(ended),
    });
    this.groupMembers.add(member);
    return member;
  }

  async deleteStream(streamName: string): Promise<void> {
    this.assertOpen();
    try {
      this.db
        .transaction(() => {
          const last = this.selectLastRevision.get(streamName)?.last ?? null;
          if (last === null) return;
          this.rememberDeletedStream.run(streamName, last);
          this.deleteStreamEvents.run(streamName);
        })
        .immediate();
    } finally {
      writesInProcess++;
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await Promise.all([...this.subscriptions, ...this.groupMembers].map((subscription) => subscription.stop()));
    this.db.close();
  }

  private appendInTransaction(
    streamName: string,
    events: SerialisedEvent[],
    expectedRevision: ExpectedRevision,
    recordedAt: string,
  ): { result: AppendResult; wroteEvents: boolean } {
    const lastRevision = this.selectLastRevision.get(streamName)?.last ?? null;
    const alreadyStored = this.selectExistingIds.all(streamName, JSON.stringify(events.map((event) => event.id)));

    // A whole repeat succeeds whatever the expected revision: an at-least-once worker re-appending
    // its result after a crash must not see a conflict for work that is already done.
    if (lastRevision !== null && alreadyStored.length === events.length) {
      const position = Math.max(...alreadyStored.map((row) => row.position));
      return { result: { nextExpectedRevision: lastRevision, position }, wroteEvents: false };
    }

    const actual: ActualRevision = lastRevision ?? 'no_stream';
    if (!isExpectedRevisionMet(expectedRevision, actual)) {
      throw new WrongExpectedRevisionError(streamName, expectedRevision, actual);
    }

    const storedIds = new Set(alreadyStored.map((row) => row.event_id));
    let revision = lastRevision ?? this.selectDeletedLastRevision.get(streamName)?.last_revision ?? -1;
    let position = 0;
    for (const event of events) {
      if (storedIds.has(event.id)) continue;
      revision += 1;
      const inserted = this.insertEvent.run(streamName, revision, event.id, event.type, event.data, event.metadata, recordedAt);
      position = Number(inserted.lastInsertRowid);
    }
    return { result: { nextExpectedRevision: revision, position }, wroteEvents: true };
  }

  private readAllAfter(afterPosition: number, limit: number): RecordedEvent[] {
    return this.selectAllAfter.all(afterPosition, limit).map(fromEventColumns);
  }

  private wakeSubscriptions(): void {
    for (const subscription of this.subscriptions) subscription.wake();
    for (const member of this.groupMembers) member.wake();
  }

  private assertOpen(): void {
    if (this.closed) throw new Error('The event store is closed');
  }
}

function serialise(event: NewEvent): SerialisedEvent {
  return {
    id: event.id,
    type: event.type,
    data: JSON.stringify(event.data),
    metadata: JSON.stringify(event.metadata ?? {}),
  };
}

function fromEventColumns([position, streamName, revision, id, type, data, metadata, recordedAt]: EventColumns): RecordedEvent {
  return {
    id,
    streamName,
    revision,
    position,
    type,
    data: JSON.parse(data) as EventData,
    metadata: JSON.parse(metadata) as EventData,
    recordedAt: new Date(recordedAt),
  };
}

function toRecordedEvent(row: EventRow): RecordedEvent {
  return {
    id: row.event_id,
    streamName: row.stream_name,
    revision: row.revision,
    position: row.position,
    type: row.type,
    data: JSON.parse(row.data) as EventData,
    metadata: JSON.parse(row.metadata) as EventData,
    recordedAt: new Date(row.recorded_at),
  };
}
