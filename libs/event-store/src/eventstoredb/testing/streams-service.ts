/**
 * `event_store.client.streams.Streams`: reads, catch-up subscriptions, appends (`appends.ts`),
 * soft delete and tombstone. Each handler turns the request into a call on the transaction log and
 * answers in the exact message shapes and status codes of the server (KurrentDB 24.x sources:
 * `Streams.Read.cs`, `Streams.Append.cs`, `Streams.BatchAppend.cs`, `Streams.Delete.cs`).
 */
import type {
  sendUnaryData,
  ServerDuplexStream,
  ServerReadableStream,
  ServerUnaryCall,
  ServerWritableStream,
  UntypedServiceImplementation,
} from '@grpc/grpc-js';
import * as streams from '@eventstore/db-client/generated/streams_pb';
import { expectedVersionOf, handleAppend, handleBatchAppend } from './appends';
import { checkpointIntervalOf, eventFilterFrom } from './event-filter';
import { RpcErrors, type GrpcError } from './grpc-errors';
import { LogSubscription, writeWithFlowControl } from './log-subscription';
import type { LogRecord, StreamReadResult, TransactionLog } from './transaction-log';
import { fillRecordedEvent, streamIdentifier, streamNameOf } from './wire';

/** The requests a client has made, by kind: a test counts an operation's round trips with it. */
export interface RoundTrips {
  reads: number;
  appends: number;
}

export class StreamsService {
  constructor(
    private readonly log: TransactionLog,
    private readonly roundTrips: RoundTrips = { reads: 0, appends: 0 },
  ) {}

  /** The handlers, keyed by the generated service definition's method names. */
  implementation(): UntypedServiceImplementation {
    return {
      read: (call: ServerWritableStream<streams.ReadReq, streams.ReadResp>) => {
        this.roundTrips.reads++;
        this.read(call);
      },
      append: (call: ServerReadableStream<streams.AppendReq, streams.AppendResp>, callback: sendUnaryData<streams.AppendResp>) => {
        this.roundTrips.appends++;
        handleAppend(this.log, call, callback);
      },
      // One long-lived call carries many appends: each answered request is a round trip.
      batchAppend: (call: ServerDuplexStream<streams.BatchAppendReq, streams.BatchAppendResp>) =>
        handleBatchAppend(this.log, call, () => this.roundTrips.appends++),
      delete: (call: ServerUnaryCall<streams.DeleteReq, streams.DeleteResp>, callback: sendUnaryData<streams.DeleteResp>) =>
        this.delete(call, callback),
      tombstone: (call: ServerUnaryCall<streams.TombstoneReq, streams.TombstoneResp>, callback: sendUnaryData<streams.TombstoneResp>) =>
        this.tombstone(call, callback),
    };
  }

  private read(call: ServerWritableStream<streams.ReadReq, streams.ReadResp>): void {
    const options = call.request.getOptions();
    if (!options) return void call.emit('error', RpcErrors.invalidArgument('ReadReq without options'));
    const structuredIds = options.getUuidOption()?.hasStructured() ?? false;
    const toMessage = (record: LogRecord) => readEvent(record, structuredIds);
    try {
      if (options.hasSubscription()) return this.subscribe(call, options, toMessage);
      void this.readOnce(call, options, toMessage).catch((error: unknown) => call.emit('error', error));
    } catch (error) {
      call.emit('error', error);
    }
  }

  private subscribe(
    call: ServerWritableStream<streams.ReadReq, streams.ReadResp>,
    options: streams.ReadReq.Options,
    toMessage: (record: LogRecord) => streams.ReadResp,
  ): void {
    let startIndex: number;
    let select: (record: LogRecord) => boolean;
    let checkpointInterval: number | undefined;
    if (options.hasAll()) {
      const all = options.getAll()!;
      // A subscription starts strictly after its position; from the start it sees everything.
      startIndex = all.hasEnd() ? this.log.records.length : all.hasPosition() ? this.log.indexAfter(tfPosition(all.getPosition()!)) : 0;
      if (options.hasFilter()) {
        const filter = eventFilterFrom(options.getFilter()!);
        select = (record) => filter.matches(record);
        checkpointInterval = checkpointIntervalOf(options.getFilter()!);
      } else {
        select = () => true;
      }
    } else {
      const stream = options.getStream()!;
      const streamName = streamNameOf(stream.getStreamIdentifier());
      // From a revision means after it; from the end means only what is written from now on.
      const after = stream.hasStart() ? -1 : stream.hasEnd() ? this.log.lastEventNumber(streamName) : Number(stream.getRevision());
      startIndex = 0;
      select = (record) => record.streamName === streamName && !record.tombstone && record.eventNumber > after;
    }
    new LogSubscription(this.log, call, { startIndex, select, toMessage, checkpointInterval }).start();
  }

  private async readOnce(
    call: ServerWritableStream<streams.ReadReq, streams.ReadResp>,
    options: streams.ReadReq.Options,
    toMessage: (record: LogRecord) => streams.ReadResp,
  ): Promise<void> {
    const count = Number(BigInt(options.getCount() || '0'));
    const backwards = options.getReadDirection() === streams.ReadReq.Options.ReadDirection.BACKWARDS;
    let records: Iterable<LogRecord>;
    if (options.hasStream()) {
      const stream = options.getStream()!;
      const streamName = streamNameOf(stream.getStreamIdentifier());
      const result = this.readStream(streamName, stream, backwards, count);
      if (result.kind === 'stream-deleted') return void call.emit('error', RpcErrors.streamDeleted(streamName));
      if (result.kind === 'no-stream') {
        const notFound = new streams.ReadResp.StreamNotFound().setStreamIdentifier(streamIdentifier(streamName));
        await writeWithFlowControl(call, new streams.ReadResp().setStreamNotFound(notFound));
        return void call.end();
      }
      records = result.records;
    } else {
      const filter = options.hasFilter() ? eventFilterFrom(options.getFilter()!) : undefined;
      records = this.readAll(options.getAll()!, backwards, count, (record) => !filter || filter.matches(record));
    }
    for (const record of records) {
      if (call.cancelled) return;
      await writeWithFlowControl(call, toMessage(record));
    }
    call.end();
  }

  private readStream(
    streamName: string,
    stream: streams.ReadReq.Options.StreamOptions,
    backwards: boolean,
    count: number,
  ): StreamReadResult {
    if (backwards) {
      const from = stream.hasEnd() ? undefined : stream.hasStart() ? 0 : Number(stream.getRevision());
      return this.log.readStreamBackwards(streamName, from, count);
    }
    const from = stream.hasStart() ? 0 : stream.hasEnd() ? Number.POSITIVE_INFINITY : Number(stream.getRevision());
    return this.log.readStreamForwards(streamName, from, count);
  }

  /** `$all` forwards from a position includes it; backwards from a position stops before it. */
  private *readAll(all: streams.ReadReq.Options.AllOptions, backwards: boolean, count: number, select: (record: LogRecord) => boolean) {
    const records = this.log.records;
    let found = 0;
    if (backwards) {
      const from = all.hasEnd() ? records.length : all.hasStart() ? 0 : this.log.indexAtOrAfter(tfPosition(all.getPosition()!));
      for (let index = from - 1; index >= 0 && found < count; index--) {
        if (select(records[index]!)) {
          found++;
          yield records[index]!;
        }
      }
      return;
    }
    const from = all.hasStart() ? 0 : all.hasEnd() ? records.length : this.log.indexAtOrAfter(tfPosition(all.getPosition()!));
    for (let index = from; index < records.length && found < count; index++) {
      if (select(records[index]!)) {
        found++;
        yield records[index]!;
      }
    }
  }

  private delete(call: ServerUnaryCall<streams.DeleteReq, streams.DeleteResp>, callback: sendUnaryData<streams.DeleteResp>): void {
    const options = call.request.getOptions()!;
    const streamName = streamNameOf(options.getStreamIdentifier());
    const expected = expectedVersionOf(options);
    const outcome = this.log.softDelete(streamName, expected);
    if (outcome.kind === 'deleted') {
      const position = new streams.DeleteResp.Position()
        .setCommitPosition(String(outcome.position))
        .setPreparePosition(String(outcome.position));
      return callback(null, new streams.DeleteResp().setPosition(position));
    }
    callback(deleteError('Delete', streamName, expected, outcome));
  }

  private tombstone(
    call: ServerUnaryCall<streams.TombstoneReq, streams.TombstoneResp>,
    callback: sendUnaryData<streams.TombstoneResp>,
  ): void {
    const options = call.request.getOptions()!;
    const streamName = streamNameOf(options.getStreamIdentifier());
    const expected = expectedVersionOf(options);
    const outcome = this.log.tombstone(streamName, expected);
    if (outcome.kind === 'deleted') {
      const position = new streams.TombstoneResp.Position()
        .setCommitPosition(String(outcome.position))
        .setPreparePosition(String(outcome.position));
      return callback(null, new streams.TombstoneResp().setPosition(position));
    }
    callback(deleteError('Tombstone', streamName, expected, outcome));
  }
}

function readEvent(record: LogRecord, structuredIds: boolean): streams.ReadResp {
  const event = fillRecordedEvent(new streams.ReadResp.ReadEvent.RecordedEvent(), record, structuredIds);
  return new streams.ReadResp().setEvent(new streams.ReadResp.ReadEvent().setEvent(event).setCommitPosition(String(record.position)));
}

function tfPosition(position: { getCommitPosition(): string; getPreparePosition(): string }) {
  return { commit: BigInt(position.getCommitPosition()), prepare: BigInt(position.getPreparePosition()) };
}

function deleteError(
  operation: string,
  streamName: string,
  expected: number,
  outcome: { kind: string; currentVersion?: number },
): GrpcError {
  if (outcome.kind === 'wrong-expected-version')
    return RpcErrors.wrongExpectedVersion(operation, streamName, expected, outcome.currentVersion ?? -1);
  if (outcome.kind === 'stream-deleted') return RpcErrors.streamDeleted(streamName);
  return RpcErrors.invalidTransaction();
}
