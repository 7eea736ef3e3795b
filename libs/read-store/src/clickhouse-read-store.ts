import type { ClickHouseClient } from '@clickhouse/client';
import { toColumnarInsert, toPortableParams, toPortableRow } from './clickhouse-values';
import { applyMigrations } from './migrations';
import { ReadGate, ReadStoreClosed } from './read-gate';
import type { Migration, QueryParams, ReadOptions, ReadStore } from './read-store.port';
import { assertSqlIdentifier } from './sql-identifier';

/** Column names written into the statement's text; any other name goes the JSONEachRow way, as a JSON key. */
const PLAIN_COLUMN = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Reads of one store handed to ClickHouse at once (see ReadGate); writes (the projections' inserts)
 * and commands are not counted. A server runs them side by side: more do not finish sooner on a
 * few cores, and each holds threads and memory. chDB runs one statement of a connection at a time,
 * so the others queue inside it where they cannot be dropped: two keep it busy.
 */
export const READS_AT_ONCE = { server: 8, embedded: 2 } as const;

export interface ClickHouseReadStoreOptions {
  /** The database this store owns; created if missing. */
  database: string;
  /**
   * Opens a client whose statements run in the given database: `createClient({ database })` for a
   * server, a chDB connection bound to it for the embedded engine. Called once with `default`
   * (a client cannot be bound to a database that does not exist yet), then once with `database`.
   */
  connect(database: string): ClickHouseClient;
  /** Runs after the client has closed, e.g. to release the shared chDB engine. */
  onClose?(): void | Promise<void>;
  /** Reads handed to ClickHouse at once (READS_AT_ONCE). */
  readsAtOnce: number;
  /**
   * Whether a read under way is cut off when its caller goes: a server cancels a query whose HTTP
   * request closes. chDB's client would only stop waiting for it (rejecting with its own error, logged
   * as a failure for every client that hung up) while the engine runs it on, its place freed too soon.
   */
  cancelsReads: boolean;
}

/**
 * The read store over `@clickhouse/client`, for a ClickHouse server and for chDB alike: the only
 * difference between the two is the connection behind the client.
 */
export class ClickHouseReadStore implements ReadStore {
  readonly database: string;
  readonly #client: ClickHouseClient;
  readonly #onClose: (() => void | Promise<void>) | undefined;
  #closing: Promise<void> | undefined;
  readonly #reads: ReadGate;
  readonly #cancelsReads: boolean;
  // Two migrate() calls on one store must not interleave and apply a migration twice.
  #migrations: Promise<unknown> = Promise.resolve();

  private constructor(database: string, client: ClickHouseClient, options: ClickHouseReadStoreOptions) {
    this.database = database;
    this.#client = client;
    this.#onClose = options.onClose;
    this.#reads = new ReadGate(options.readsAtOnce);
    this.#cancelsReads = options.cancelsReads;
  }

  static async open(options: ClickHouseReadStoreOptions): Promise<ClickHouseReadStore> {
    try {
      const database = assertSqlIdentifier(options.database, 'database');
      const admin = options.connect('default');
      try {
        await admin.command({ query: 'CREATE DATABASE IF NOT EXISTS {database:Identifier}', query_params: { database } });
      } finally {
        await admin.close();
      }
      return new ClickHouseReadStore(database, options.connect(database), options);
    } catch (error) {
      await options.onClose?.();
      throw error;
    }
  }

  async command(sql: string, params?: QueryParams): Promise<void> {
    this.#assertOpen();
    await this.#client.command({ query: sql, query_params: toPortableParams(params) });
  }

  async query<Row = Record<string, unknown>>(sql: string, params?: QueryParams, options?: ReadOptions): Promise<Row[]> {
    this.#assertOpen();
    return this.#reads.run(options?.signal, async () => {
      // JSONCompact, one parse of the whole answer, then objects keyed by the column names: rows without
      // their keys repeated are a third smaller, and one JSON.parse beats one per row (JSONEachRow).
      const result = await this.#client.query({
        query: sql,
        query_params: toPortableParams(params),
        format: 'JSONCompact',
        abort_signal: this.#cancelsReads ? options?.signal : undefined,
      });
      const { meta, data } = await result.json<unknown[]>();
      return rowsOf<Row>(
        (meta ?? []).map((column) => column.name),
        data,
      );
    });
  }

  async queryRaw(sql: string, params?: QueryParams, options?: ReadOptions): Promise<Buffer> {
    this.#assertOpen();
    return this.#reads.run(options?.signal, async () => {
      // exec, not query: query's ResultSet would decode the bytes into one string (and its stream()
      // would split them into row objects). The bytes go on as they are, chunks joined at most once.
      const { stream } = await this.#client.exec({
        query: `${sql}\nFORMAT TabSeparatedRaw`,
        query_params: toPortableParams(params),
        abort_signal: this.#cancelsReads ? options?.signal : undefined,
      });
      const chunks: Buffer[] = [];
      for await (const chunk of stream) chunks.push(chunk as Buffer);
      return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
    });
  }

  async insert(table: string, rows: readonly Record<string, unknown>[]): Promise<void> {
    this.#assertOpen();
    assertSqlIdentifier(table, 'table');
    if (rows.length === 0) return;
    const compact = toColumnarInsert(rows);
    if (compact === undefined || !compact.columns.every((column) => PLAIN_COLUMN.test(column))) {
      await this.#client.insert({ table, values: rows.map(toPortableRow), format: 'JSONEachRow' });
      return;
    }
    // The rows inline after the statement, which both a server (over HTTP) and chDB parse the same
    // way; the client's insert() would only take these formats as objects to encode itself.
    try {
      await this.#client.command({
        query: `INSERT INTO ${table} (${compact.columns.join(', ')}) FORMAT JSONCompactColumns\n${compact.body}`,
      });
    } catch (error) {
      // A key the table has no column for: JSONEachRow skips such keys (input_format_skip_unknown_fields),
      // a column list refuses them. Rows of an older event shape must be written as they always were.
      if ((error as { type?: string }).type !== 'NO_SUCH_COLUMN_IN_TABLE') throw error;
      await this.#client.insert({ table, values: rows.map(toPortableRow), format: 'JSONEachRow' });
    }
  }

  migrate(migrations: readonly Migration[]): Promise<string[]> {
    const run = this.#migrations.then(() => applyMigrations(this, migrations));
    this.#migrations = run.catch(() => undefined);
    return run;
  }

  close(): Promise<void> {
    this.#closing ??= (async () => {
      try {
        await this.#reads.close(new ReadStoreClosed(this.database));
        await this.#client.close();
      } finally {
        await this.#onClose?.();
      }
    })();
    return this.#closing;
  }

  #assertOpen(): void {
    // Without this a late write (a timer firing after shutdown) gets whatever the closed
    // connection says, which on chDB and over HTTP are two different, unhelpful messages.
    if (this.#closing !== undefined) throw new ReadStoreClosed(this.database);
  }
}

/** Objects from JSONCompact's positional rows. */
function rowsOf<Row>(names: readonly string[], data: readonly unknown[][]): Row[] {
  const rows = new Array<Row>(data.length);
  for (let r = 0; r < data.length; r++) {
    const values = data[r]!;
    const row: Record<string, unknown> = {};
    for (let c = 0; c < names.length; c++) row[names[c]!] = values[c];
    rows[r] = row as Row;
  }
  return rows;
}
