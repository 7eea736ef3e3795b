/**
 * The double's storage: an in-memory transaction log with the server's write rules.
 *
 * It keeps what the gRPC layer needs to answer like EventStoreDB (23.x/24.x, log format V2):
 * - one append-only log of records ordered by a byte-like log position, which is what `$all` reads;
 * - per stream its events (event number = revision) and its last event number;
 * - stream metadata read from the stream's `$$name` metadata stream, honouring `$tb` (truncate
 *   before) and `$maxCount`, as the server's index reader does;
 * - the expected-version check ported from the server's `IndexWriter.CheckCommit`, including its
 *   idempotency rules (a repeat is recognised by event id through a bounded cache of recent ids, or
 *   by comparing ids at the expected event numbers) and its soft-delete rules;
 * - soft delete (a `$metadata` event with `$tb` = long.MaxValue in `$$name`), re-creation (another
 *   `$metadata` event setting `$tb` to the first new event number, written after the new events), and
 *   tombstones (hard delete).
 *
 * Nothing is ever removed: like a server that has not scavenged, `$all` keeps deleted events.
 */
import { randomUUID } from 'node:crypto';
import { LONG_MAX_VALUE, ticksSinceEpoch } from './wire';

/** .NET's `ExpectedVersion` constants, which is how the server encodes an expected revision internally. */
export const ExpectedVersion = { Any: -2, NoStream: -1, StreamExists: -4 } as const;

export interface ProposedEvent {
  eventId: string;
  eventType: string;
  isJson: boolean;
  data: Uint8Array;
  metadata: Uint8Array;
}

export interface LogRecord {
  /** Log position of this record: its commit position and, for its own TF position, its prepare position. */
  position: number;
  /** Log position of the first record of the write this record belongs to. */
  transactionPosition: number;
  streamName: string;
  eventNumber: number;
  /** A hard-delete marker; its event number is long.MaxValue on the wire. */
  tombstone: boolean;
  eventId: string;
  eventType: string;
  isJson: boolean;
  data: Uint8Array;
  metadata: Uint8Array;
  /** Ticks since the Unix epoch. */
  created: bigint;
}

export type WriteOutcome =
  | { kind: 'written'; firstEventNumber: number; lastEventNumber: number; preparePosition: number; commitPosition: number }
  | { kind: 'idempotent'; firstEventNumber: number; lastEventNumber: number; position: number }
  | { kind: 'wrong-expected-version'; currentVersion: number }
  | { kind: 'stream-deleted' }
  | { kind: 'invalid-transaction' };

export type StreamReadResult = { kind: 'success'; records: LogRecord[] } | { kind: 'no-stream' } | { kind: 'stream-deleted' };

export interface StreamMetadata {
  truncateBefore?: number;
  maxCount?: number;
}

interface StreamState {
  events: LogRecord[];
  tombstoned: boolean;
}

/** A position in `$all` as the server compares them: commit position first, then prepare position. */
export interface TfPosition {
  commit: bigint;
  prepare: bigint;
}

type Decision =
  | { kind: 'ok'; currentVersion: number; softDeleted: boolean }
  | { kind: 'idempotent'; first: number; last: number }
  | { kind: 'wrong-expected-version'; currentVersion: number }
  | { kind: 'deleted' }
  | { kind: 'corrupted-idempotency' };

export interface TransactionLogOptions {
  /** How many recent event ids the idempotency check remembers (the server's committed-events cache). */
  recentEventIds?: number;
  clock?: () => Date;
}

/** Where the first record goes: a real log starts with a chunk header and an epoch record, never an event at 0. */
const FIRST_RECORD_POSITION = 1_024;
const DELETED_STREAM_METADATA = `{"$tb":${LONG_MAX_VALUE}}`;

export class TransactionLog {
  readonly records: LogRecord[] = [];
  private readonly streams = new Map<string, StreamState>();
  /** Event id → where it was written; bounded and least-recently-written first, like the server's cache. */
  private readonly recentIds = new Map<string, { streamName: string; eventNumber: number }>();
  private readonly listeners = new Set<() => void>();
  private nextPosition = FIRST_RECORD_POSITION;
  private readonly recentIdsLimit: number;
  private readonly clock: () => Date;

  constructor(options: TransactionLogOptions = {}) {
    this.recentIdsLimit = options.recentEventIds ?? 100_000;
    this.clock = options.clock ?? (() => new Date());
  }

  /** Calls `listener` after every write; subscriptions use it to go on from where they are. */
  onWritten(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  get endPosition(): number {
    return this.nextPosition;
  }

  /** Last event number of a stream: -1 when it has none, +Infinity when it is tombstoned. */
  lastEventNumber(streamName: string): number {
    const stream = this.streams.get(streamName);
    if (!stream) return -1;
    if (stream.tombstoned) return Number.POSITIVE_INFINITY;
    return stream.events.length - 1;
  }

  metadataOf(streamName: string): StreamMetadata {
    // The server gives every metadata stream `$maxCount: 1`: only the latest metadata counts.
    if (streamName.startsWith('$$')) return { maxCount: 1 };
    const raw = this.rawMetadataOf(streamName);
    if (raw === undefined) return {};
    try {
      const parsed = JSON.parse(Buffer.from(raw).toString('utf8')) as Record<string, unknown>;
      const metadata: StreamMetadata = {};
      if (typeof parsed['$tb'] === 'number') metadata.truncateBefore = parsed['$tb'];
      if (typeof parsed['$maxCount'] === 'number') metadata.maxCount = parsed['$maxCount'];
      return metadata;
    } catch {
      return {}; // The server ignores metadata it cannot parse.
    }
  }

  isSoftDeleted(streamName: string): boolean {
    const truncateBefore = this.metadataOf(streamName).truncateBefore;
    // JSON numbers are doubles: long.MaxValue comes back as 2^63.
    return truncateBefore !== undefined && truncateBefore >= Number(LONG_MAX_VALUE);
  }

  /** Appends with the server's expected-version and idempotency rules. */
  write(streamName: string, expectedVersion: number, events: ProposedEvent[]): WriteOutcome {
    const decision = this.checkCommit(
      streamName,
      expectedVersion,
      events.map((event) => event.eventId),
    );
    switch (decision.kind) {
      case 'wrong-expected-version':
        return { kind: 'wrong-expected-version', currentVersion: decision.currentVersion };
      case 'deleted':
        return { kind: 'stream-deleted' };
      case 'corrupted-idempotency':
        return { kind: 'invalid-transaction' };
      case 'idempotent': {
        const last = this.streams.get(streamName)!.events[decision.last]!;
        return { kind: 'idempotent', firstEventNumber: decision.first, lastEventNumber: decision.last, position: last.position };
      }
      case 'ok':
        break;
    }
    // Writing the metadata of a soft-deleted stream brings the stream back too (decided before the write).
    const undeleteOriginal = streamName.startsWith('$$') && this.isSoftDeleted(streamName.slice(2));
    const first = decision.currentVersion + 1;
    const written = this.append(streamName, first, events);
    if (decision.softDeleted) this.softUndelete(streamName, first);
    if (undeleteOriginal) this.softUndelete(streamName.slice(2), this.lastEventNumber(streamName.slice(2)) + 1);
    this.notify();
    return {
      kind: 'written',
      firstEventNumber: first,
      lastEventNumber: first + events.length - 1,
      preparePosition: written[0]?.position ?? this.nextPosition,
      commitPosition: written[written.length - 1]?.position ?? this.nextPosition,
    };
  }

  /**
   * Soft delete, as the server's storage writer does it: refuse a stream that has neither events nor
   * metadata (wrong expected version, current -1), otherwise replace its metadata with `$tb` =
   * long.MaxValue. Reads then see no stream, and the next append continues the event numbers.
   */
  softDelete(
    streamName: string,
    expectedVersion: number,
  ): { kind: 'deleted'; position: number } | Exclude<WriteOutcome, { kind: 'written' | 'idempotent' }> {
    const check = this.checkCommit(streamName, expectedVersion, [randomUUID()]);
    if (check.kind === 'wrong-expected-version') return { kind: 'wrong-expected-version', currentVersion: check.currentVersion };
    if (check.kind === 'deleted') return { kind: 'stream-deleted' };
    if (check.kind !== 'ok') return { kind: 'invalid-transaction' };
    if (this.lastEventNumber(streamName) < 0 && this.lastEventNumber(`$$${streamName}`) < 0) {
      return { kind: 'wrong-expected-version', currentVersion: -1 };
    }
    const [record] = this.append(`$$${streamName}`, this.lastEventNumber(`$$${streamName}`) + 1, [metadataEvent(DELETED_STREAM_METADATA)]);
    this.notify();
    return { kind: 'deleted', position: record!.position };
  }

  /** Hard delete: a `$streamDeleted` record with event number long.MaxValue; the name can never be used again. */
  tombstone(
    streamName: string,
    expectedVersion: number,
  ): { kind: 'deleted'; position: number } | Exclude<WriteOutcome, { kind: 'written' | 'idempotent' }> {
    const check = this.checkCommit(streamName, expectedVersion, [randomUUID()]);
    if (check.kind === 'wrong-expected-version') return { kind: 'wrong-expected-version', currentVersion: check.currentVersion };
    if (check.kind === 'deleted') return { kind: 'stream-deleted' };
    if (check.kind !== 'ok') return { kind: 'invalid-transaction' };
    const stream = this.streamState(streamName);
    const record = this.newRecord(streamName, Number.POSITIVE_INFINITY, this.nextPosition, {
      eventId: randomUUID(),
      eventType: '$streamDeleted',
      isJson: false,
      data: new Uint8Array(),
      metadata: new Uint8Array(),
    });
    record.tombstone = true;
    stream.tombstoned = true;
    this.notify();
    return { kind: 'deleted', position: record.position };
  }

  /** Reads a stream forwards as the index reader does: nothing below `$tb` or outside `$maxCount`. */
  readStreamForwards(streamName: string, fromEventNumber: number, maxCount: number): StreamReadResult {
    const visible = this.visibleRange(streamName);
    if (visible.kind !== 'success') return visible;
    const records: LogRecord[] = [];
    const events = this.streams.get(streamName)!.events;
    for (let n = Math.max(fromEventNumber, visible.from); n <= visible.to && records.length < maxCount; n++) records.push(events[n]!);
    return { kind: 'success', records };
  }

  /** Reads a stream backwards from an event number (or from its end when `fromEventNumber` is undefined). */
  readStreamBackwards(streamName: string, fromEventNumber: number | undefined, maxCount: number): StreamReadResult {
    const visible = this.visibleRange(streamName);
    if (visible.kind !== 'success') return visible;
    const records: LogRecord[] = [];
    const events = this.streams.get(streamName)!.events;
    const start = fromEventNumber === undefined ? visible.to : Math.min(fromEventNumber, visible.to);
    for (let n = start; n >= visible.from && records.length < maxCount; n--) records.push(events[n]!);
    return { kind: 'success', records };
  }

  /** Index of the first record at or after a TF position (reads forwards from a position include it). */
  indexAtOrAfter(position: TfPosition): number {
    let [low, high] = [0, this.records.length];
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (compareTf(this.records[middle]!, position) < 0) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  /** Index of the first record strictly after a TF position (subscriptions start after their position). */
  indexAfter(position: TfPosition): number {
    let index = this.indexAtOrAfter(position);
    while (index < this.records.length && compareTf(this.records[index]!, position) === 0) index++;
    return index;
  }

  /** Appends system events the server writes on its own (stats, persistent subscription bookkeeping). */
  writeSystemEvent(streamName: string, eventType: string, data: string, options: { metadata?: string; isJson?: boolean } = {}): LogRecord {
    const [record] = this.append(streamName, this.lastEventNumber(streamName) + 1, [
      {
        eventId: randomUUID(),
        eventType,
        isJson: options.isJson ?? true,
        data: Buffer.from(data),
        metadata: Buffer.from(options.metadata ?? ''),
      },
    ]);
    this.notify();
    return record!;
  }

  /** A port of the server's `IndexWriter.CheckCommit` (KurrentDB 24.x), decision for decision. */
  private checkCommit(streamName: string, expectedVersion: number, eventIds: string[]): Decision {
    const currentVersion = this.lastEventNumber(streamName);
    if (currentVersion === Number.POSITIVE_INFINITY) return { kind: 'deleted' };

    if (expectedVersion === ExpectedVersion.StreamExists) {
      if (this.isSoftDeleted(streamName)) return { kind: 'deleted' };
      if (currentVersion < 0 && this.lastEventNumber(`$$${streamName}`) < 0) {
        return { kind: 'wrong-expected-version', currentVersion };
      }
    }

    if (expectedVersion === ExpectedVersion.Any || expectedVersion === ExpectedVersion.StreamExists) {
      let [first, last] = [-1, -1];
      for (const [index, eventId] of eventIds.entries()) {
        const known = this.recentIds.get(eventId);
        if (!known || known.streamName !== streamName) {
          return index === 0
            ? { kind: 'ok', currentVersion, softDeleted: this.isSoftDeleted(streamName) }
            : { kind: 'corrupted-idempotency' };
        }
        if (index === 0) first = known.eventNumber;
        last = known.eventNumber;
      }
      if (eventIds.length === 0) return { kind: 'ok', currentVersion, softDeleted: this.isSoftDeleted(streamName) };
      return { kind: 'idempotent', first, last };
    }

    if (expectedVersion < currentVersion) {
      let eventNumber = expectedVersion;
      for (const eventId of eventIds) {
        eventNumber += 1;
        const known = this.recentIds.get(eventId);
        if (known && known.streamName === streamName && known.eventNumber === eventNumber) continue;
        if (this.streams.get(streamName)?.events[eventNumber]?.eventId === eventId) continue;
        if (eventNumber !== expectedVersion + 1) return { kind: 'corrupted-idempotency' };
        if (expectedVersion === ExpectedVersion.NoStream && this.isSoftDeleted(streamName)) {
          return { kind: 'ok', currentVersion, softDeleted: true };
        }
        return { kind: 'wrong-expected-version', currentVersion };
      }
      if (eventNumber === expectedVersion) return { kind: 'wrong-expected-version', currentVersion };
      return { kind: 'idempotent', first: expectedVersion + 1, last: eventNumber };
    }

    if (expectedVersion > currentVersion) return { kind: 'wrong-expected-version', currentVersion };
    return { kind: 'ok', currentVersion, softDeleted: this.isSoftDeleted(streamName) };
  }

  /**
   * After a soft-deleted stream is written again, the server rewrites its metadata with `$tb` set to
   * the first new event number, keeping the other keys. The record lands after the new events.
   */
  private softUndelete(streamName: string, recreateFrom: number): void {
    const raw = this.rawMetadataOf(streamName);
    let metadata: Record<string, unknown> = {};
    try {
      metadata = raw === undefined ? {} : (JSON.parse(Buffer.from(raw).toString('utf8')) as Record<string, unknown>);
    } catch {
      return; // The server gives up on metadata it cannot parse.
    }
    metadata['$tb'] = recreateFrom;
    this.append(`$$${streamName}`, this.lastEventNumber(`$$${streamName}`) + 1, [metadataEvent(JSON.stringify(metadata))]);
  }

  private rawMetadataOf(streamName: string): Uint8Array | undefined {
    const events = this.streams.get(`$$${streamName}`)?.events;
    return events && events.length > 0 ? events[events.length - 1]!.data : undefined;
  }

  private visibleRange(
    streamName: string,
  ): { kind: 'success'; from: number; to: number } | { kind: 'no-stream' } | { kind: 'stream-deleted' } {
    const last = this.lastEventNumber(streamName);
    if (last === Number.POSITIVE_INFINITY) return { kind: 'stream-deleted' };
    const metadata = this.metadataOf(streamName);
    if (last < 0 || this.isSoftDeleted(streamName)) return { kind: 'no-stream' };
    let from = Math.max(0, metadata.truncateBefore ?? 0);
    if (metadata.maxCount !== undefined) from = Math.max(from, last - metadata.maxCount + 1);
    return { kind: 'success', from, to: last };
  }

  private append(streamName: string, firstEventNumber: number, events: ProposedEvent[]): LogRecord[] {
    const transactionPosition = this.nextPosition;
    return events.map((event, index) => this.newRecord(streamName, firstEventNumber + index, transactionPosition, event));
  }

  private newRecord(streamName: string, eventNumber: number, transactionPosition: number, event: ProposedEvent): LogRecord {
    const record: LogRecord = {
      position: this.nextPosition,
      transactionPosition,
      streamName,
      eventNumber,
      tombstone: false,
      eventId: event.eventId,
      eventType: event.eventType,
      isJson: event.isJson,
      data: event.data,
      metadata: event.metadata,
      created: ticksSinceEpoch(this.clock()),
    };
    this.records.push(record);
    this.nextPosition += recordSize(record);
    if (Number.isFinite(eventNumber)) {
      this.streamState(streamName).events.push(record);
      this.rememberId(event.eventId, streamName, eventNumber);
    }
    return record;
  }

  private streamState(streamName: string): StreamState {
    let stream = this.streams.get(streamName);
    if (!stream) {
      stream = { events: [], tombstoned: false };
      this.streams.set(streamName, stream);
    }
    return stream;
  }

  private rememberId(eventId: string, streamName: string, eventNumber: number): void {
    this.recentIds.delete(eventId);
    this.recentIds.set(eventId, { streamName, eventNumber });
    if (this.recentIds.size > this.recentIdsLimit) this.recentIds.delete(this.recentIds.keys().next().value as string);
  }

  private notify(): void {
    for (const listener of [...this.listeners]) listener();
  }
}

/** Orders a record against a TF position: a record written as its own commit sits at (position, position). */
export function compareTf(record: LogRecord, position: TfPosition): number {
  const mine = BigInt(record.position);
  if (mine !== position.commit) return mine < position.commit ? -1 : 1;
  return mine === position.prepare ? 0 : mine < position.prepare ? -1 : 1;
}

function metadataEvent(json: string): ProposedEvent {
  return { eventId: randomUUID(), eventType: '$metadata', isJson: true, data: Buffer.from(json), metadata: new Uint8Array() };
}

/** Roughly the size of a V2 prepare record, so positions grow by bytes, not by one per event. */
function recordSize(record: LogRecord): number {
  const text = Buffer.byteLength(record.streamName) + Buffer.byteLength(record.eventType);
  return 96 + 2 * text + record.data.length + record.metadata.length;
}
