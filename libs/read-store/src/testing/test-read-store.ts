import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createReadStore } from '../create-read-store';
import type { QueryParams, ReadOptions, ReadStore } from '../read-store.port';

/**
 * The chDB data directory for tests in this process. chDB runs one engine per process bound to
 * one directory, and jest runs several test files in one worker process, so every test file must
 * use the same directory: `CHDB_TEST_PATH` when set, else one temporary directory per process
 * (derived from the pid, which all test files in a worker share). Tests are kept apart by database.
 */
export function testChdbPath(): string {
  // Same default as test/support/chdb-path.ts: a different one would clash when end-to-end tests
  // and these run in the same worker.
  return process.env.CHDB_TEST_PATH ?? join(tmpdir(), `rank-tracker-chdb-${process.pid}`);
}

export function uniqueTestDatabase(prefix = 'test'): string {
  return `${prefix}_${randomBytes(6).toString('hex')}`;
}

/** A read store on the embedded engine in a database of its own, dropped by `close()`. */
export async function createTestReadStore(): Promise<ReadStore> {
  const store = await createReadStore({ database: uniqueTestDatabase(), chdbPath: testChdbPath() });
  return withDatabaseDroppedOnClose(store);
}

export function withDatabaseDroppedOnClose(store: ReadStore): ReadStore {
  let closing: Promise<void> | undefined;
  return {
    database: store.database,
    command: (sql, params) => store.command(sql, params),
    query<Row = Record<string, unknown>>(sql: string, params?: QueryParams, options?: ReadOptions): Promise<Row[]> {
      return store.query<Row>(sql, params, options);
    },
    queryRaw: (sql, params, options) => store.queryRaw(sql, params, options),
    insert: (table, rows) => store.insert(table, rows),
    migrate: (migrations) => store.migrate(migrations),
    close(): Promise<void> {
      closing ??= (async () => {
        try {
          await store.command('DROP DATABASE IF EXISTS {database:Identifier}', { database: store.database });
        } finally {
          await store.close();
        }
      })();
      return closing;
    },
  };
}
