/**
 * The errors the server raises as gRPC statuses (its `RpcExceptions` class). The client recognises
 * them by the `exception` trailer and reads details from other trailers, so the status code, the
 * trailer names and their values are what matters here, not the wording.
 */
import { Metadata, status, type ServiceError } from '@grpc/grpc-js';

export type GrpcError = Pick<ServiceError, 'code' | 'details' | 'metadata'> & { message: string };

function rpcError(code: status, details: string, trailers: Record<string, string> = {}): GrpcError {
  const metadata = new Metadata();
  for (const [key, value] of Object.entries(trailers)) metadata.set(key, value);
  return { code, details, metadata, message: details };
}

export const RpcErrors = {
  wrongExpectedVersion: (operation: string, streamName: string, expectedVersion: number, actualVersion: number) =>
    rpcError(
      status.FAILED_PRECONDITION,
      `${operation} failed due to WrongExpectedVersion. Stream: ${streamName}, Expected version: ${expectedVersion}, Actual version: ${actualVersion}`,
      {
        exception: 'wrong-expected-version',
        'stream-name': streamName,
        'expected-version': String(expectedVersion),
        'actual-version': String(actualVersion),
      },
    ),

  streamDeleted: (streamName: string) =>
    rpcError(status.FAILED_PRECONDITION, `Event stream '${streamName}' is deleted.`, {
      exception: 'stream-deleted',
      'stream-name': streamName,
    }),

  invalidTransaction: () => rpcError(status.INVALID_ARGUMENT, 'Invalid Transaction', { exception: 'invalid-transaction' }),

  maxAppendSizeExceeded: (maxAppendSize: number) =>
    rpcError(status.INVALID_ARGUMENT, `Maximum Append Size of ${maxAppendSize} Exceeded.`, {
      exception: 'maximum-append-size-exceeded',
      'maximum-append-size': String(maxAppendSize),
    }),

  requiredMetadataPropertyMissing: (property: string) =>
    rpcError(status.INVALID_ARGUMENT, `Required Metadata Property '${property}' is missing`, {
      exception: 'missing-required-metadata-property',
      'required-metadata-properties': 'type,content-type',
    }),

  invalidArgument: (details: string) => rpcError(status.INVALID_ARGUMENT, details),

  persistentSubscriptionExists: (streamName: string, groupName: string) =>
    rpcError(status.ALREADY_EXISTS, `Subscription group ${groupName} on stream ${streamName} exists.`, {
      exception: 'persistent-subscription-exists',
      'stream-name': streamName,
      'group-name': groupName,
    }),

  persistentSubscriptionDoesNotExist: (streamName: string, groupName: string) =>
    rpcError(status.NOT_FOUND, `Subscription group ${groupName} on stream ${streamName} does not exist.`, {
      exception: 'persistent-subscription-does-not-exist',
      'stream-name': streamName,
      'group-name': groupName,
    }),

  persistentSubscriptionFailed: (streamName: string, groupName: string, reason: string) =>
    rpcError(status.INTERNAL, `Subscription group ${groupName} on stream ${streamName} failed: '${reason}'`, {
      exception: 'persistent-subscription-failed',
      'stream-name': streamName,
      'group-name': groupName,
      reason,
    }),

  maximumSubscribersReached: (streamName: string, groupName: string) =>
    rpcError(status.FAILED_PRECONDITION, `Maximum subscriptions reached for subscription group ${groupName} on stream ${streamName}.`, {
      exception: 'maximum-subscribers-reached',
      'stream-name': streamName,
      'group-name': groupName,
    }),

  /** What the double answers for the parts of the protocol it does not emulate. */
  notEmulated: (what: string) => rpcError(status.UNIMPLEMENTED, `The EventStoreDB test double does not emulate ${what}`),
};
