/**
 * The read store port: ClickHouse, embedded (chDB) or a server, through one adapter written against
 * `@clickhouse/client`. SQL is ClickHouse SQL; values are always bound as parameters
 * (`{name:Type}` placeholders), never spliced into the text.
 */
export type QueryParams = Record<string, unknown>;

/** How a read is asked. */
export interface ReadOptions {
  /**
   * Aborted when the caller has gone (its client closed the connection): the read is not started
   * (it throws `QueryAbandoned`), and a server cancels it if it has.
   */
  signal?: AbortSignal;
}

export interface ReadStore {
  /** The ClickHouse database this store reads and writes; tables are unqualified in SQL. */
  readonly database: string;
  /** Runs a statement that returns no rows (DDL, ALTER ... DELETE, OPTIMIZE). */
  command(sql: string, params?: QueryParams): Promise<void>;
  /** Runs a query and returns its rows as plain objects (64-bit integers come back as strings, as from a server). */
  query<Row = Record<string, unknown>>(sql: string, params?: QueryParams, options?: ReadOptions): Promise<Row[]>;
  /**
   * Runs a query and returns its rows as TabSeparatedRaw bytes: each row's values unescaped, a tab
   * between them and a newline after each row. Only for columns that cannot hold a tab or a newline
   * (ids, numbers, JSON text): a big answer of text that ClickHouse builds travels on as bytes,
   * never escaped, parsed or decoded into a string.
   */
  queryRaw(sql: string, params?: QueryParams, options?: ReadOptions): Promise<Buffer>;
  /** Inserts rows (JSON objects whose keys are column names). */
  insert(table: string, rows: readonly Record<string, unknown>[]): Promise<void>;
  /** Applies the numbered migration files not yet applied, in order, each once. */
  migrate(migrations: readonly Migration[]): Promise<string[]>;
  close(): Promise<void>;
}

/** The store as one caller reads it: its reads carry the caller's signal (see `ReadOptions`). */
export function readingFor(store: ReadStore, signal: AbortSignal): ReadStore {
  return {
    database: store.database,
    command: (sql, params) => store.command(sql, params),
    query: <Row = Record<string, unknown>>(sql: string, params?: QueryParams) => store.query<Row>(sql, params, { signal }),
    queryRaw: (sql, params) => store.queryRaw(sql, params, { signal }),
    insert: (table, rows) => store.insert(table, rows),
    migrate: (migrations) => store.migrate(migrations),
    close: () => store.close(),
  };
}

/** One numbered migration: `001_create_keyword_updates.sql` and its statements. */
export interface Migration {
  /** Unique, sortable name, e.g. `001_accounts`. */
  name: string;
  /** Statements, run in order. */
  statements: string[];
}
