import { describeEventStoreContract } from '../event-store.contract';
import { EventStoreDbEventStore } from './eventstoredb-event-store';

// Run with npm run test:servers. Without a server this file must fail, not pass
// quietly: a green run has to mean the contract held against EventStoreDB.
const connectionString = process.env['EVENTSTORE_CONNECTION_STRING'];
if (!connectionString) {
  throw new Error(
    'EVENTSTORE_CONNECTION_STRING is not set: the EventStoreDB contract tests need a server, e.g. ' +
      "EVENTSTORE_CONNECTION_STRING='esdb://localhost:2113?tls=false' npm run test:servers",
  );
}
const serverConnectionString: string = connectionString;

describeEventStoreContract('EventStoreDB', async () => {
  const store = EventStoreDbEventStore.fromConnectionString(serverConnectionString);
  return { store, dispose: () => store.close() };
});
