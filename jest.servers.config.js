/**
 * The store contract suites against real servers (`npm run test:servers`): the EventStoreDB suite
 * when EVENTSTORE_CONNECTION_STRING is set, the ClickHouse suite when CLICKHOUSE_URL is set.
 */
const base = require('./jest.config.js');

const suites = [];
if (process.env.EVENTSTORE_CONNECTION_STRING) suites.push('<rootDir>/libs/event-store/**/*.server-spec.ts');
if (process.env.CLICKHOUSE_URL) suites.push('<rootDir>/libs/read-store/**/*.server-spec.ts');
if (suites.length === 0) {
  throw new Error(
    'npm run test:servers needs EVENTSTORE_CONNECTION_STRING (esdb://host:2113?tls=false) and/or CLICKHOUSE_URL (http://host:8123)',
  );
}

module.exports = { ...base, testMatch: suites, testTimeout: 60000 };
