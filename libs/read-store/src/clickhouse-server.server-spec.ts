import { createReadStore } from './create-read-store';
import { describeReadStoreContract } from './read-store.contract';
import { testChdbPath, uniqueTestDatabase, withDatabaseDroppedOnClose } from './testing/test-read-store';

// Run with: CLICKHOUSE_URL=http://localhost:8123 npm run test:servers
const clickhouseUrl = process.env.CLICKHOUSE_URL;
if (!clickhouseUrl) {
  throw new Error(
    'CLICKHOUSE_URL is not set: this suite runs the read store contract against a real ClickHouse server. ' +
      'Start one (e.g. docker compose up clickhouse) and run ' +
      'CLICKHOUSE_URL=http://localhost:8123 npm run test:servers',
  );
}

describeReadStoreContract(`ClickHouse server at ${clickhouseUrl}`, async () =>
  withDatabaseDroppedOnClose(
    await createReadStore({
      clickhouseUrl,
      clickhouseUser: process.env.CLICKHOUSE_USER,
      clickhousePassword: process.env.CLICKHOUSE_PASSWORD,
      database: uniqueTestDatabase('server'),
      // Not used with a URL; required by the config type.
      chdbPath: testChdbPath(),
    }),
  ),
);
