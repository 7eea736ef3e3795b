import type { ClickHouseClientConfigOptions } from '@clickhouse/client';
import type { ChdbConnection } from 'chdb/connection';
import { assertSqlIdentifier } from './sql-identifier';

/** The connection contract of the installed @clickhouse/client (it ships its own copy of the common types). */
type ClientConnection = NonNullable<ClickHouseClientConfigOptions['connection']>;
type ClientParams<Method extends keyof ClientConnection> = Parameters<ClientConnection[Method]>[0];
type ClientResult<Method extends keyof ClientConnection> = ReturnType<ClientConnection[Method]>;
// chDB types its connection against @clickhouse/client-common, whose settings type is a separate
// (structurally slightly different) declaration of the same wire parameters.
type ChdbParams<Method extends keyof ChdbConnection> = ChdbConnection[Method] extends (params: infer P) => unknown ? P : never;

/**
 * Makes a chDB connection honour a database the way `createClient({ database })` does over HTTP.
 *
 * `@clickhouse/client` passes its `database` option only to its own HTTP connection, so a chDB
 * connection would run everything in `default`. Each chDB connection keeps its own session state,
 * so one `USE` before the first statement binds this connection (and no other) to the database.
 */
export class ChdbDatabaseConnection implements ClientConnection {
  readonly #inner: ChdbConnection;
  readonly #database: string;
  #databaseSelected: Promise<void> | undefined;

  constructor(inner: ChdbConnection, database: string) {
    this.#inner = inner;
    this.#database = assertSqlIdentifier(database, 'database');
  }

  async query(params: ClientParams<'query'>): ClientResult<'query'> {
    await this.#selectDatabase();
    return this.#inner.query(params as ChdbParams<'query'>);
  }

  async exec(params: ClientParams<'exec'>): ClientResult<'exec'> {
    await this.#selectDatabase();
    return this.#inner.exec(params as ChdbParams<'exec'>);
  }

  async command(params: ClientParams<'command'>): ClientResult<'command'> {
    await this.#selectDatabase();
    return this.#inner.command(params as ChdbParams<'command'>);
  }

  async insert(params: ClientParams<'insert'>): ClientResult<'insert'> {
    await this.#selectDatabase();
    return this.#inner.insert(params as ChdbParams<'insert'>);
  }

  ping(params: ClientParams<'ping'>): ClientResult<'ping'> {
    return this.#inner.ping(params as ChdbParams<'ping'>);
  }

  close(): Promise<void> {
    return this.#inner.close();
  }

  #selectDatabase(): Promise<void> {
    // A missing database fails the statement that needed it, as on a server; the next statement
    // tries again, so creating the database later is enough to recover.
    return (this.#databaseSelected ??= this.#inner
      .command({ query: 'USE {database:Identifier}', query_params: { database: this.#database } })
      .then(
        () => undefined,
        (error: unknown) => {
          this.#databaseSelected = undefined;
          throw error;
        },
      ));
  }
}
