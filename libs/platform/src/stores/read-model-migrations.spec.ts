import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createReadStore } from '@rank/read-store/create-read-store';
import type { ReadStore } from '@rank/read-store/read-store.port';
import { createTestReadStore, testChdbPath, uniqueTestDatabase } from '@rank/read-store/testing/test-read-store';
import { loadConfig } from '../config/app-config';
import { StartRefusal } from '../start-refusal';
import { openStores, readModelMigrations } from './open-stores';

/**
 * The read models' migrations against the rule of the migration runner: one that fails or is cut
 * off before its record in schema_migrations runs again from its first statement at the next start.
 * The hardest case is a process killed after a migration's last statement, before its record.
 */
describe("the read models' migrations, run again after a kill", () => {
  let store: ReadStore;
  beforeAll(async () => (store = await createTestReadStore()));
  afterAll(() => store.close());

  it('each runs again, whole, after its last statement, with every earlier migration recorded', async () => {
    // Before, 014 dropped serp_checks last, and its rerun's INSERT read serp_checks: every start failed.
    const migrations = readModelMigrations();
    const failures: string[] = [];
    for (const [index, migration] of migrations.entries()) {
      await store.migrate(migrations.slice(0, index + 1));
      for (const [number, statement] of migration.statements.entries()) {
        await store.command(statement).catch((error: unknown) => failures.push(`${migration.name} #${number + 1}: ${String(error)}`));
      }
    }
    expect(failures).toEqual([]);
  });
});

describe('a start on embedded read models that no migration can bring up to date', () => {
  let dataDir: string;
  const database = uniqueTestDatabase('broken');
  const configFor = (db: string) => loadConfig({ DATA_DIR: dataDir, CHDB_PATH: testChdbPath(), CLICKHOUSE_DATABASE: db });
  beforeAll(() => (dataDir = mkdtempSync(join(tmpdir(), 'rank-tracker-migrations-'))));
  afterAll(async () => {
    const store = await createReadStore({ database: 'default', chdbPath: testChdbPath() });
    await store.command(`DROP DATABASE IF EXISTS ${database}`).finally(() => store.close());
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('is refused with the way out (the read models are rebuilt from the events), not a stack trace', async () => {
    // Given the store an earlier release left when killed between 014's last statement (which dropped
    // serp_checks; 018 does now) and its record: 014 to come again, serp_checks gone
    const first = await openStores(configFor(database));
    await first.readStore.command(`DELETE FROM schema_migrations WHERE name >= '014'`);
    await Promise.all([first.readStore.close(), first.eventStore.close()]);
    // When the service starts on it
    const opening = openStores(configFor(database));
    // then the start is refused, saying what failed and what to do
    await expect(opening).rejects.toBeInstanceOf(StartRefusal);
    await expect(opening).rejects.toThrow(
      /^The read models could not be brought up to date\. Migration 014_check_snapshots failed at statement 3 of 7: .*serp_checks/,
    );
    await expect(opening).rejects.toThrow(
      `stop every process using CHDB_PATH ${JSON.stringify(testChdbPath())}, move that directory aside (or delete it), and start again`,
    );
    // and read models made anew (another database here: the test process keeps its chDB directory) start on the same events
    const anew = await openStores(configFor(uniqueTestDatabase('anew')));
    await anew.readStore.command(`DROP DATABASE ${anew.readStore.database}`);
    await Promise.all([anew.readStore.close(), anew.eventStore.close()]);
  });
});
