import type { Readable } from 'node:stream';
import type {
  ChdbConnection,
  ConnBaseQueryParams,
  ConnCommandResult,
  ConnExecParams,
  ConnExecResult,
  ConnInsertParams,
  ConnInsertResult,
  ConnPingParams,
  ConnPingResult,
  ConnQueryResult,
  Connection,
} from 'chdb/connection';
import { assertSqlIdentifier } from './sql-identifier';

/**
 * Makes a chDB connection honour a database the way `createClient({ database })` does over HTTP.
 *
 * `@clickhouse/client` passes its `database` option only to its own HTTP connection, so a chDB
 * connection would run everything in `default`. Each chDB connection keeps its own session state,
 * so one `USE` before the first statement binds this connection (and no other) to the database.
 */
export class ChdbDatabaseConnection implements Connection<Readable> {
  readonly #inner: ChdbConnection;
  readonly #database: string;
  #databaseSelected: Promise<void> | undefined;

  constructor(inner: ChdbConnection, database: string) {
    this.#inner = inner;
    this.#database = assertSqlIdentifier(database, 'database');
  }

  async query(params: ConnBaseQueryParams): Promise<ConnQueryResult<Readable>> {
    await this.#selectDatabase();
    return this.#inner.query(params);
  }

  async exec(params: ConnExecParams<Readable>): Promise<ConnExecResult<Readable>> {
    await this.#selectDatabase();
    return this.#inner.exec(params);
  }

  async command(params: ConnBaseQueryParams): Promise<ConnCommandResult> {
    await this.#selectDatabase();
    return this.#inner.command(params);
  }

  async insert(params: ConnInsertParams<Readable>): Promise<ConnInsertResult> {
    await this.#selectDatabase();
    return this.#inner.insert(params);
  }

  ping(params: ConnPingParams): Promise<ConnPingResult> {
    return this.#inner.ping(params);
  }

  close(): Promise<void> {
    return this.#inner.close();
  }

  #selectDatabase(): Promise<void> {
    // A missing database fails the statement that needed it, as on a server; the next statement
    // tries again, so creating the database later is enough to recover.
    this.#databaseSelected ??= this.#inner
      .command({ query: 'USE {database:Identifier}', query_params: { database: this.#database } })
      .then(
        () => undefined,
        (error: unknown) => {
          this.#databaseSelected = undefined;
          throw error;
        },
      );
    return this.#databaseSelected;
  }
}
