/**
 * Small conversions between the double's records and the client's generated protobuf messages.
 * The messages are the client's own (`@eventstore/db-client/generated`), so whatever the double
 * sends is decoded by exactly the code that decodes a real server's answers.
 */
import * as shared from '@eventstore/db-client/generated/shared_pb';
import type * as status from '@eventstore/db-client/generated/status_pb';
import type { LogRecord } from './transaction-log';

/** `google.protobuf.Empty` and `Any`: their typings ship nested inside the client, so they are loaded by hand. */
type GoogleEmpty = NonNullable<ReturnType<shared.WrongExpectedVersion['getCurrentNoStream']>>;
type GoogleAny = NonNullable<ReturnType<status.Status['getDetails']>>;
const { Empty: GoogleEmptyClass } = require('google-protobuf/google/protobuf/empty_pb') as { Empty: new () => GoogleEmpty };
const { Any: GoogleAnyClass } = require('google-protobuf/google/protobuf/any_pb') as { Any: new () => GoogleAny };

export function googleEmpty(): GoogleEmpty {
  return new GoogleEmptyClass();
}

/** Packs a message as .NET's `Any.Pack` does: type URL `type.googleapis.com/<full name>`. */
export function packAny(message: { serializeBinary(): Uint8Array }, fullName: string): GoogleAny {
  const any = new GoogleAnyClass();
  any.pack(message.serializeBinary(), fullName);
  return any;
}

/** .NET's long.MaxValue: the event number of a tombstone and the `$tb` of a soft-deleted stream. */
export const LONG_MAX_VALUE = 9223372036854775807n;

/** Ticks (100 ns) since the Unix epoch, which is how the server stamps `created`. */
export function ticksSinceEpoch(date: Date): bigint {
  return BigInt(date.getTime()) * 10_000n;
}

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Reads a `UUID` message in either form; the server hands ids back as lower-case .NET Guid strings. */
export function parseUuid(uuid: shared.UUID | undefined): string {
  if (!uuid) throw new TypeError('missing UUID');
  if (uuid.hasStructured()) {
    const structured = uuid.getStructured()!;
    const hex =
      BigInt.asUintN(64, BigInt(structured.getMostSignificantBits())).toString(16).padStart(16, '0') +
      BigInt.asUintN(64, BigInt(structured.getLeastSignificantBits())).toString(16).padStart(16, '0');
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  }
  const text = uuid.getString();
  if (!UUID_PATTERN.test(text)) throw new TypeError(`"${text}" is not a UUID`);
  return text.toLowerCase();
}

/** Writes a UUID in the form the caller asked for with its `uuid_option`. */
export function toUuid(id: string, structured: boolean): shared.UUID {
  const uuid = new shared.UUID();
  if (!structured) return uuid.setString(id);
  const hex = id.replace(/-/g, '');
  const bits = new shared.UUID.Structured()
    .setMostSignificantBits(BigInt.asIntN(64, BigInt(`0x${hex.slice(0, 16)}`)).toString())
    .setLeastSignificantBits(BigInt.asIntN(64, BigInt(`0x${hex.slice(16)}`)).toString());
  return uuid.setStructured(bits);
}

export function streamIdentifier(name: string): shared.StreamIdentifier {
  return new shared.StreamIdentifier().setStreamName(Buffer.from(name, 'utf8'));
}

export function streamNameOf(identifier: shared.StreamIdentifier | undefined): string {
  if (!identifier) throw new TypeError('missing stream identifier');
  return Buffer.from(identifier.getStreamName_asU8()).toString('utf8');
}

/** The fields every `RecordedEvent` message of the Streams and PersistentSubscriptions services carries. */
export interface RecordedEventMessage {
  setId(value: shared.UUID): unknown;
  setStreamIdentifier(value: shared.StreamIdentifier): unknown;
  setStreamRevision(value: string): unknown;
  setPreparePosition(value: string): unknown;
  setCommitPosition(value: string): unknown;
  getMetadataMap(): { set(key: string, value: string): unknown };
  setCustomMetadata(value: Uint8Array): unknown;
  setData(value: Uint8Array): unknown;
}

/**
 * Fills a recorded-event message as the server does: the commit position is the event's own log
 * position, but the prepare position is the position of the write's first event (the server reports
 * `EventRecord.TransactionPosition` there), so within a multi-event append they differ.
 */
export function fillRecordedEvent<M extends RecordedEventMessage>(message: M, record: LogRecord, structuredIds: boolean): M {
  message.setId(toUuid(record.eventId, structuredIds));
  message.setStreamIdentifier(streamIdentifier(record.streamName));
  message.setStreamRevision(record.tombstone ? LONG_MAX_VALUE.toString() : record.eventNumber.toString());
  message.setPreparePosition(record.transactionPosition.toString());
  message.setCommitPosition(record.position.toString());
  const metadata = message.getMetadataMap();
  metadata.set('type', record.eventType);
  metadata.set('content-type', record.isJson ? 'application/json' : 'application/octet-stream');
  metadata.set('created', record.created.toString());
  message.setCustomMetadata(record.metadata);
  message.setData(record.data);
  return message;
}
