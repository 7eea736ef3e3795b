/**
 * Runs the event store's tests that need a real server (`*.server-spec.ts`): the contract suite
 * against EventStoreDB at EVENTSTORE_CONNECTION_STRING. `npm test` never picks these up, since the
 * root config only matches *.spec.ts and *.e2e-spec.ts.
 *
 *   EVENTSTORE_CONNECTION_STRING='esdb://localhost:2113?tls=false' npx jest -c libs/event-store/jest.server.config.js
 */
const path = require('node:path');
const base = require('../../jest.config.js');

module.exports = {
  ...base,
  rootDir: path.resolve(__dirname, '../..'),
  roots: ['<rootDir>/libs/event-store'],
  testMatch: ['**/*.server-spec.ts'],
  testTimeout: 60000,
};
