import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Migration, ReadStore } from './read-store.port';

/**
 * Numbered schema migrations for a read store.
 *
 * Files are named `NNN_name.sql` (any number of digits, e.g. `001_keyword_positions.sql`) and
 * applied in numeric order. The applied names are recorded in `schema_migrations` in the store's
 * own database, so each database is migrated on its own.
 *
 * ClickHouse has no transactional DDL: when a statement fails, the earlier statements of that
 * migration stay applied and the migration is not recorded, so it runs again from its first
 * statement next time. Write statements that can run twice (`CREATE TABLE IF NOT EXISTS`,
 * `ADD COLUMN IF NOT EXISTS`). Run migrations from one process at a time (ClickHouse has no lock
 * to stop two processes applying the same migration concurrently).
 */

const MIGRATION_NAME = /^(\d+)_[A-Za-z0-9_-]+$/;
const MIGRATION_FILE = /^(\d+)_[A-Za-z0-9_-]+\.sql$/;

const CREATE_MIGRATIONS_TABLE = `CREATE TABLE IF NOT EXISTS schema_migrations
(
    name String,
    applied_at DateTime64(3, 'UTC') DEFAULT now64(3)
)
ENGINE = MergeTree
ORDER BY name`;

export type MigrationTarget = Pick<ReadStore, 'command' | 'query' | 'insert'>;

/** Applies, in numeric order, the migrations not yet recorded; returns the names it applied. */
export async function applyMigrations(target: MigrationTarget, migrations: readonly Migration[]): Promise<string[]> {
  const ordered = orderMigrations(migrations);
  await target.command(CREATE_MIGRATIONS_TABLE);
  const appliedRows = await target.query<{ name: string }>('SELECT name FROM schema_migrations');
  const alreadyApplied = new Set(appliedRows.map((row) => row.name));

  const appliedNow: string[] = [];
  for (const migration of ordered) {
    if (alreadyApplied.has(migration.name)) continue;
    for (const [index, statement] of migration.statements.entries()) {
      try {
        await target.command(statement);
      } catch (error) {
        throw new Error(
          `Migration ${migration.name} failed at statement ${index + 1} of ${migration.statements.length}: ${(error as Error).message}`,
          { cause: error },
        );
      }
    }
    // Recorded only after every statement succeeded: a half-applied migration runs again.
    await target.insert('schema_migrations', [{ name: migration.name }]);
    appliedNow.push(migration.name);
  }
  return appliedNow;
}

/** Sorts by the leading number; rejects names without one and repeated numbers. */
export function orderMigrations(migrations: readonly Migration[]): Migration[] {
  const byNumber = new Map<number, Migration>();
  for (const migration of migrations) {
    const match = MIGRATION_NAME.exec(migration.name);
    if (match === null) {
      throw new Error(`Migration name ${JSON.stringify(migration.name)} must look like NNN_name (digits, _, then letters, digits, _ or -)`);
    }
    const number = Number(match[1]);
    const clash = byNumber.get(number);
    if (clash !== undefined) {
      throw new Error(`Migrations ${clash.name} and ${migration.name} share the number ${number}`);
    }
    byNumber.set(number, migration);
  }
  return [...byNumber.entries()].sort(([a], [b]) => a - b).map(([, migration]) => migration);
}

/**
 * Reads the `NNN_name.sql` files of a directory as migrations, in numeric order. Other `.sql`
 * files are an error (a misnamed migration would otherwise be skipped silently); files that do
 * not end in `.sql` are ignored.
 */
export function loadMigrationsFromDir(dir: string): Migration[] {
  const migrations: Migration[] = [];
  for (const file of readdirSync(dir).sort()) {
    if (!file.endsWith('.sql')) continue;
    if (!MIGRATION_FILE.test(file)) {
      throw new Error(`Migration file ${join(dir, file)} must be named NNN_name.sql`);
    }
    const statements = splitSqlStatements(readFileSync(join(dir, file), 'utf8'));
    if (statements.length === 0) throw new Error(`Migration file ${join(dir, file)} has no statements`);
    migrations.push({ name: file.slice(0, -'.sql'.length), statements });
  }
  return orderMigrations(migrations);
}

/**
 * Splits a migration file into statements. The rule, kept simple so a reader can apply it by eye:
 * a statement ends at a `;` that is the last character on its line (trailing spaces allowed).
 * A `;` elsewhere on a line (inside a string, a comment, mid-line) does not split, and a line
 * starting with `--` never ends a statement. The last statement may omit its `;`. Statements that
 * hold only comments and blank lines are dropped.
 */
export function splitSqlStatements(sql: string): string[] {
  const statements: string[] = [];
  let current: string[] = [];
  const finish = (): void => {
    const text = current.join('\n').trim();
    const hasCode = current.some((line) => line.trim() !== '' && !line.trim().startsWith('--'));
    if (hasCode) statements.push(text);
    current = [];
  };
  for (const line of sql.split(/\r?\n/)) {
    const trimmed = line.trimEnd();
    if (trimmed.endsWith(';') && !trimmed.trimStart().startsWith('--')) {
      current.push(trimmed.slice(0, -1));
      finish();
    } else {
      current.push(line);
    }
  }
  finish();
  return statements;
}
