/**
 * Tests against a real ClickHouse server, kept out of the root jest run (which matches only
 * *.spec.ts and *.e2e-spec.ts) because they need one:
 *
 *   CLICKHOUSE_URL=http://localhost:8123 [CLICKHOUSE_USER=default CLICKHOUSE_PASSWORD=...] \
 *     npx jest -c libs/read-store/jest.server.config.js
 */
module.exports = {
  rootDir: '../..',
  testEnvironment: 'node',
  transform: { '^.+\\.ts$': ['@swc/jest'] },
  roots: ['<rootDir>/libs/read-store'],
  testMatch: ['**/*.server-spec.ts'],
  moduleFileExtensions: ['ts', 'js', 'json'],
  testTimeout: 30000,
};
