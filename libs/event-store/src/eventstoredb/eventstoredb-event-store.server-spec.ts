import { describeEventStoreContract } from '../event-store.contract';
import { EventStoreDbEventStore } from './eventstoredb-event-store';

// Run with libs/event-store/jest.server.config.js. Without a server this file must fail, not pass
// quietly: a green run has to mean the contract held against EventStoreDB.
const connectionString = process.env['EVENTSTORE_CONNECTION_STRING'];
if (!connectionString) {
  throw new Error(
    'EVENTSTORE_CONNECTION_STRING is not set: the EventStoreDB contract tests need a server, e.g. ' +
      "EVENTSTORE_CONNECTION_STRING='esdb://localhost:2113?tls=false' npx jest -c libs/event-store/jest.server.config.js",
  );
}
const serverConnectionString: string = connectionString;

describeEventStoreContract('EventStoreDB', async () => {
  const store = EventStoreDbEventStore.fromConnectionString(serverConnectionString);
  return { store, dispose: () => store.close() };
});
