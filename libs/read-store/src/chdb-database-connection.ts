import type { ClickHouseClientConfigOptions, ClickHouseSettings } from '@clickhouse/client';
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
 * Makes a chDB connection honour a database and settings the way `createClient({ database,
 * clickhouse_settings })` does over HTTP.
 *
 * `@clickhouse/client` passes its `database` option only to its own HTTP connection, so a chDB
 * connection would run everything in `default`. Each chDB connection keeps its own session state,
 * so one `USE` before the first statement binds this connection (and no other) to the database.
 *
 * The settings are SET once in that session too, not handed to the client: chDB's connection turns
 * a client's settings into `SET ...;` statements in front of every statement, and a text of several
 * statements costs chDB a pass over all of it, inline INSERT data included. With the five settings of
 * SERVER_ALIGNED_SETTINGS in front, an insert of 100,000 rows (5 MB) took 420-440 ms of chDB's time
 * against 150-190 ms without, and every query paid a millisecond or more.
 */
export class ChdbDatabaseConnection implements ClientConnection {
  readonly #inner: ChdbConnection;
  readonly #database: string;
  readonly #settings: string[];
  #sessionPrepared: Promise<void> | undefined;

  constructor(inner: ChdbConnection, database: string, settings: ClickHouseSettings = {}) {
    this.#inner = inner;
    this.#database = assertSqlIdentifier(database, 'database');
    this.#settings = Object.entries(settings)
      .filter(([, value]) => value !== undefined)
      .map(([name, value]) => `SET ${assertSqlIdentifier(name, 'setting')} = ${settingLiteral(value)}`);
  }

  async query(params: ClientParams<'query'>): ClientResult<'query'> {
    await this.#prepareSession();
    return this.#inner.query(params as ChdbParams<'query'>);
  }

  async exec(params: ClientParams<'exec'>): ClientResult<'exec'> {
    await this.#prepareSession();
    return this.#inner.exec(params as ChdbParams<'exec'>);
  }

  async command(params: ClientParams<'command'>): ClientResult<'command'> {
    await this.#prepareSession();
    return this.#inner.command(params as ChdbParams<'command'>);
  }

  async insert(params: ClientParams<'insert'>): ClientResult<'insert'> {
    await this.#prepareSession();
    return this.#inner.insert(params as ChdbParams<'insert'>);
  }

  ping(params: ClientParams<'ping'>): ClientResult<'ping'> {
    return this.#inner.ping(params as ChdbParams<'ping'>);
  }

  close(): Promise<void> {
    return this.#inner.close();
  }

  #prepareSession(): Promise<void> {
    // A missing database fails the statement that needed it, as on a server; the next statement
    // tries again, so creating the database later is enough to recover.
    return (this.#sessionPrepared ??= (async () => {
      for (const statement of this.#settings) await this.#inner.command({ query: statement });
      await this.#inner.command({ query: 'USE {database:Identifier}', query_params: { database: this.#database } });
    })().catch((error: unknown) => {
      this.#sessionPrepared = undefined;
      throw error;
    }));
  }
}

/** A setting's value as SQL: our settings are numbers, booleans and plain words, quoted as ClickHouse reads them. */
function settingLiteral(value: unknown): string {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value === 'boolean') return value ? '1' : '0';
  if (typeof value === 'string') return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
  throw new Error(`A chDB setting must be a number, a boolean or a string, not ${typeof value}`);
}
