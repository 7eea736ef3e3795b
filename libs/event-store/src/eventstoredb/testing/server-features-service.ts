/**
 * `event_store.client.server_features.ServerFeatures`: the client asks it once per connection and
 * then picks code paths by what it lists (BatchAppend for appends, the `all` feature before using
 * persistent subscriptions to `$all`). The double lists exactly what it emulates, so the client takes
 * the paths it takes against a real 23.10+ server, and refuses the rest with its own "unsupported"
 * error instead of a confusing UNIMPLEMENTED from the wire.
 */
import type { sendUnaryData, ServerUnaryCall, UntypedServiceImplementation } from '@grpc/grpc-js';
import type * as shared from '@eventstore/db-client/generated/shared_pb';
import * as features from '@eventstore/db-client/generated/serverfeatures_pb';

/** What a fresh KurrentDB/EventStoreDB of that line reports; the client only logs it. */
export const EMULATED_SERVER_VERSION = '23.10.0';

export function serverFeaturesImplementation(options: { batchAppend: boolean }): UntypedServiceImplementation {
  const methods: Array<[service: string, method: string, features: string[]]> = [
    ['event_store.client.streams.Streams', 'Read', []],
    ['event_store.client.streams.Streams', 'Append', []],
    ['event_store.client.streams.Streams', 'Delete', []],
    ['event_store.client.streams.Streams', 'Tombstone', []],
    ['event_store.client.persistent_subscriptions.PersistentSubscriptions', 'Create', ['all']],
    ['event_store.client.persistent_subscriptions.PersistentSubscriptions', 'Read', ['all']],
    ['event_store.client.persistent_subscriptions.PersistentSubscriptions', 'Delete', ['all']],
  ];
  if (options.batchAppend) methods.push(['event_store.client.streams.Streams', 'BatchAppend', []]);
  return {
    getSupportedMethods: (
      _call: ServerUnaryCall<shared.Empty, features.SupportedMethods>,
      callback: sendUnaryData<features.SupportedMethods>,
    ) => {
      const supported = new features.SupportedMethods().setEventStoreServerVersion(EMULATED_SERVER_VERSION);
      for (const [service, method, list] of methods) {
        supported.addMethods(
          new features.SupportedMethod().setServiceName(service.toLowerCase()).setMethodName(method.toLowerCase()).setFeaturesList(list),
        );
      }
      callback(null, supported);
    },
  };
}
