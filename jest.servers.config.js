/**
 * The store contract suites against real servers: EventStoreDB when EVENTSTORE_CONNECTION_STRING is
 * set, ClickHouse when CLICKHOUSE_URL is set (`npm run test:servers`). A suite whose variable is
 * missing fails at once and says which one.
 */
const base = require('./jest.config.js');

module.exports = {
  ...base,
  testMatch: ['**/*.server-spec.ts'],
  testTimeout: 60000,
};
