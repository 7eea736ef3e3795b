/**
 * The two ways the client appends: the client-streaming `Append` (one request per write), and the
 * long-lived bidirectional `BatchAppend` the client uses when ServerFeatures lists it (every server
 * since 21.10). Both end in `TransactionLog.write`; they differ in how results and errors travel:
 * `Append` answers a wrong expected version in its response message and other failures as gRPC
 * statuses, `BatchAppend` answers everything in-band as a `google.rpc.Status` whose details are the
 * client's `event_store.client.*` messages (`Streams.Append.cs`, `Streams.BatchAppend.cs`, `Status.cs`).
 */
import type { sendUnaryData, ServerDuplexStream, ServerReadableStream } from '@grpc/grpc-js';
import * as shared from '@eventstore/db-client/generated/shared_pb';
import * as status from '@eventstore/db-client/generated/status_pb';
import * as streams from '@eventstore/db-client/generated/streams_pb';
import { RpcErrors, type GrpcError } from './grpc-errors';
import { ExpectedVersion, type ProposedEvent, type TransactionLog, type WriteOutcome } from './transaction-log';
import { googleEmpty, packAny, parseUuid, streamIdentifier, streamNameOf } from './wire';

/** The server's default `MaxAppendSize` (1 MiB). */
const MAX_APPEND_SIZE = 1_048_576;

/** `Append`: the options, then one proposed message per event; answered when the client half-closes. */
export function handleAppend(
  log: TransactionLog,
  call: ServerReadableStream<streams.AppendReq, streams.AppendResp>,
  callback: sendUnaryData<streams.AppendResp>,
): void {
  let options: streams.AppendReq.Options | undefined;
  const events: ProposedEvent[] = [];
  let failed: GrpcError | undefined;
  call.on('data', (request: streams.AppendReq) => {
    if (failed) return;
    try {
      if (request.hasOptions()) options = request.getOptions();
      else if (request.hasProposedMessage()) events.push(proposedEvent(request.getProposedMessage()!));
    } catch (error) {
      failed = error as GrpcError;
    }
  });
  call.on('end', () => {
    if (failed) return callback(failed);
    if (!options) return callback(RpcErrors.invalidArgument('AppendReq without options'));
    const streamName = streamNameOf(options.getStreamIdentifier());
    if (appendSize(events) > MAX_APPEND_SIZE) return callback(RpcErrors.maxAppendSizeExceeded(MAX_APPEND_SIZE));
    const expected = expectedVersionOf(options);
    const outcome = log.write(streamName, expected, events);
    switch (outcome.kind) {
      case 'written':
      case 'idempotent':
        return callback(null, new streams.AppendResp().setSuccess(appendSuccess(outcome)));
      case 'wrong-expected-version':
        return callback(
          null,
          new streams.AppendResp().setWrongExpectedVersion(appendWrongExpectedVersion(outcome.currentVersion, expected)),
        );
      case 'stream-deleted':
        return callback(RpcErrors.streamDeleted(streamName));
      case 'invalid-transaction':
        return callback(RpcErrors.invalidTransaction());
    }
  });
  call.on('error', () => undefined);
}

/**
 * One long-lived duplex call carries many appends, matched by correlation id. A request may be
 * split over several messages (`is_final` on the last); the options come with the first.
 */
export function handleBatchAppend(
  log: TransactionLog,
  call: ServerDuplexStream<streams.BatchAppendReq, streams.BatchAppendResp>,
  onAnswered: () => void = () => undefined,
): void {
  const pending = new Map<string, { streamName: string; expected: number; events: ProposedEvent[] }>();
  call.on('data', (request: streams.BatchAppendReq) => {
    const correlationId = request.getCorrelationId();
    const respond = (streamName: string, result: { success: streams.BatchAppendResp.Success } | { error: status.Status }) => {
      const response = new streams.BatchAppendResp().setStreamIdentifier(streamIdentifier(streamName));
      if (correlationId) response.setCorrelationId(correlationId);
      if ('success' in result) response.setSuccess(result.success);
      else response.setError(result.error);
      onAnswered();
      call.write(response);
    };
    const key = Buffer.from(correlationId?.serializeBinary() ?? []).toString('hex');
    try {
      if (request.hasOptions()) {
        const options = request.getOptions()!;
        pending.set(key, {
          streamName: streamNameOf(options.getStreamIdentifier()),
          expected: batchExpectedVersionOf(options),
          events: [],
        });
      }
      const write = pending.get(key);
      if (!write) return;
      write.events.push(...request.getProposedMessagesList().map(proposedEvent));
      if (appendSize(write.events) > MAX_APPEND_SIZE) {
        pending.delete(key);
        const details = new shared.MaximumAppendSizeExceeded().setMaxappendsize(MAX_APPEND_SIZE);
        return respond(write.streamName, {
          error: rpcStatus(3, 'MaximumAppendSizeExceeded', packAny(details, 'event_store.client.MaximumAppendSizeExceeded')),
        });
      }
      if (!request.getIsFinal()) return;
      pending.delete(key);
      respond(write.streamName, batchOutcome(write.streamName, write.expected, log.write(write.streamName, write.expected, write.events)));
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      respond(pending.get(key)?.streamName ?? '', {
        error: rpcStatus(3, 'BadRequest', packAny(new shared.BadRequest().setMessage(message), 'event_store.client.BadRequest')),
      });
    }
  });
  call.on('end', () => call.end());
  call.on('error', () => undefined);
}

function batchOutcome(
  streamName: string,
  expected: number,
  outcome: WriteOutcome,
): { success: streams.BatchAppendResp.Success } | { error: status.Status } {
  switch (outcome.kind) {
    case 'written':
    case 'idempotent': {
      const [commit, prepare] =
        outcome.kind === 'written' ? [outcome.commitPosition, outcome.preparePosition] : [outcome.position, outcome.position];
      const success = new streams.BatchAppendResp.Success().setPosition(
        new shared.AllStreamPosition().setCommitPosition(String(commit)).setPreparePosition(String(prepare)),
      );
      if (outcome.lastEventNumber < 0) success.setNoStream(googleEmpty());
      else success.setCurrentRevision(String(outcome.lastEventNumber));
      return { success };
    }
    case 'wrong-expected-version': {
      const details = new shared.WrongExpectedVersion();
      if (outcome.currentVersion < 0) details.setCurrentNoStream(googleEmpty());
      else details.setCurrentStreamRevision(String(outcome.currentVersion));
      if (expected >= 0) details.setExpectedStreamPosition(String(expected));
      else if (expected === ExpectedVersion.Any) details.setExpectedAny(googleEmpty());
      else if (expected === ExpectedVersion.StreamExists) details.setExpectedStreamExists(googleEmpty());
      else details.setExpectedNoStream(googleEmpty());
      // gRPC code ALREADY_EXISTS (6), as the server's `Status.WrongExpectedVersion`.
      return { error: rpcStatus(6, 'WrongExpectedVersion', packAny(details, 'event_store.client.WrongExpectedVersion')) };
    }
    case 'stream-deleted': {
      const details = new shared.StreamDeleted().setStreamIdentifier(streamIdentifier(streamName));
      return { error: rpcStatus(5, 'StreamDeleted', packAny(details, 'event_store.client.StreamDeleted')) };
    }
    case 'invalid-transaction':
      // The batch append path has no case for it: the server answers `Status.Unknown`.
      return { error: rpcStatus(2, 'Unknown', packAny(new shared.Unknown(), 'event_store.client.Unknown')) };
  }
}

interface ProposedMessage {
  getId(): shared.UUID | undefined;
  getMetadataMap(): { get(key: string): string | undefined };
  getData_asU8(): Uint8Array;
  getCustomMetadata_asU8(): Uint8Array;
}

/** A proposed message needs `type` and `content-type`; only `application/json` marks an event as JSON. */
function proposedEvent(message: ProposedMessage): ProposedEvent {
  const metadata = message.getMetadataMap();
  const eventType = metadata.get('type');
  const contentType = metadata.get('content-type');
  if (eventType === undefined) throw RpcErrors.requiredMetadataPropertyMissing('type');
  if (contentType === undefined) throw RpcErrors.requiredMetadataPropertyMissing('content-type');
  let eventId: string;
  try {
    eventId = parseUuid(message.getId());
  } catch (error) {
    throw RpcErrors.invalidArgument(error instanceof Error ? error.message : String(error));
  }
  return {
    eventId,
    eventType,
    isJson: contentType === 'application/json',
    data: message.getData_asU8(),
    metadata: message.getCustomMetadata_asU8(),
  };
}

/** The server's `Event.SizeOnDisk`: what counts against the maximum append size. */
function appendSize(events: ProposedEvent[]): number {
  return events.reduce((size, event) => size + event.data.length + event.metadata.length + Buffer.byteLength(event.eventType) * 2, 0);
}

/** The expected revision of an `Append`, `Delete` or `Tombstone` request, in the server's encoding. */
export function expectedVersionOf(options: {
  hasRevision(): boolean;
  getRevision(): string;
  hasNoStream(): boolean;
  hasStreamExists(): boolean;
}): number {
  if (options.hasRevision()) return Number(options.getRevision());
  if (options.hasNoStream()) return ExpectedVersion.NoStream;
  if (options.hasStreamExists()) return ExpectedVersion.StreamExists;
  return ExpectedVersion.Any;
}

function batchExpectedVersionOf(options: streams.BatchAppendReq.Options): number {
  if (options.hasStreamPosition()) return Number(options.getStreamPosition());
  if (options.hasNoStream()) return ExpectedVersion.NoStream;
  if (options.hasStreamExists()) return ExpectedVersion.StreamExists;
  return ExpectedVersion.Any;
}

function appendSuccess(outcome: Extract<WriteOutcome, { kind: 'written' | 'idempotent' }>): streams.AppendResp.Success {
  const [commit, prepare] =
    outcome.kind === 'written' ? [outcome.commitPosition, outcome.preparePosition] : [outcome.position, outcome.position];
  const success = new streams.AppendResp.Success().setPosition(
    new streams.AppendResp.Position().setCommitPosition(String(commit)).setPreparePosition(String(prepare)),
  );
  if (outcome.lastEventNumber < 0) success.setNoStream(new shared.Empty());
  else success.setCurrentRevision(String(outcome.lastEventNumber));
  return success;
}

/** Filled as the server does, including the deprecated 20.6 fields older clients read. */
function appendWrongExpectedVersion(currentVersion: number, expected: number): streams.AppendResp.WrongExpectedVersion {
  const wrong = new streams.AppendResp.WrongExpectedVersion();
  if (currentVersion < 0) wrong.setCurrentNoStream(new shared.Empty()).setNoStream2060(new shared.Empty());
  else wrong.setCurrentRevision(String(currentVersion)).setCurrentRevision2060(currentVersion);
  if (expected >= 0) wrong.setExpectedRevision(String(expected)).setExpectedRevision2060(expected);
  else if (expected === ExpectedVersion.Any) wrong.setExpectedAny(new shared.Empty()).setAny2060(new shared.Empty());
  else if (expected === ExpectedVersion.StreamExists)
    wrong.setExpectedStreamExists(new shared.Empty()).setStreamExists2060(new shared.Empty());
  else wrong.setExpectedNoStream(new shared.Empty());
  return wrong;
}

function rpcStatus(code: number, message: string, details: ReturnType<typeof packAny>): status.Status {
  return new status.Status().setCode(code).setMessage(message).setDetails(details);
}
