import {
  ANY,
  type AppendExpectedRevision,
  type CurrentRevision,
  NO_STREAM,
  type Position,
  type RecordedEvent as DbRecordedEvent,
  STREAM_EXISTS,
} from '@eventstore/db-client';
import type { EventData, ExpectedRevision, RecordedEvent } from '../event-store.port';

/** The type EventStoreDB gives the events of a `$$stream` metadata stream. */
export const METADATA_EVENT_TYPE = '$metadata';

export function toDbExpectedRevision(expected: ExpectedRevision): AppendExpectedRevision {
  switch (expected) {
    case 'any':
      return ANY;
    case 'no_stream':
      return NO_STREAM;
    case 'stream_exists':
      return STREAM_EXISTS;
    default:
      return BigInt(expected);
  }
}

export function fromDbCurrentRevision(current: CurrentRevision): number | 'no_stream' {
  return current === NO_STREAM ? 'no_stream' : Number(current);
}

/**
 * Positions are the commit position. Events appended over gRPC are committed one by one (each
 * prepare carries its own commit flag), so every event has its own commit position, and its place in
 * `$all` is (commit, prepare) = (its log position, its log position); that is what lets a plain number
 * stand for a position and be turned back into one. (The `prepare` a server reports on a recorded
 * event is the position of the first event of its write, so it is not used.)
 */
export function toDbPosition(position: number): Position {
  return { commit: BigInt(position), prepare: BigInt(position) };
}

export function isSystemEvent(event: { streamId: string; type: string }): boolean {
  return event.type.startsWith('$') || event.streamId.startsWith('$');
}

/** A `$metadata` event on `$$name` says the metadata of stream `name` changed. */
export function metadataTarget(event: { streamId: string; type: string }): string | undefined {
  return event.type === METADATA_EVENT_TYPE && event.streamId.startsWith('$$') ? event.streamId.slice(2) : undefined;
}

export function toRecordedEvent(event: DbRecordedEvent): RecordedEvent {
  if (!event.position) {
    // Servers before 22.6 leave positions out of stream reads; the port needs them.
    throw new Error(`EventStoreDB gave no position for ${event.streamId}@${event.revision}; the server must be 22.6 or newer`);
  }
  return {
    id: event.id,
    streamName: event.streamId,
    revision: Number(event.revision),
    position: Number(event.position.commit),
    type: event.type,
    data: toEventData(event.data),
    metadata: event.metadata === undefined ? {} : toEventData(event.metadata),
    recordedAt: event.created,
  };
}

/** Our events are JSON; something written by another tool as bytes is decoded as JSON text. */
function toEventData(value: unknown): EventData {
  if (value instanceof Uint8Array) {
    return value.length === 0 ? {} : (JSON.parse(Buffer.from(value).toString('utf8')) as EventData);
  }
  return value as EventData;
}
