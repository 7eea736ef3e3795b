import type { ChdbConnection } from 'chdb/connection';
import { ChdbDatabaseConnection } from './chdb-database-connection';

/** A chDB connection that records the statements it is given and answers each with nothing. */
function recordingConnection(failFirst = 0) {
  const statements: { query: string; settings: unknown }[] = [];
  let failures = failFirst;
  const run = (params: { query: string; clickhouse_settings?: unknown }) => {
    statements.push({ query: params.query, settings: params.clickhouse_settings });
    if (failures > 0) {
      failures--;
      return Promise.reject(new Error('Database shop does not exist'));
    }
    return Promise.resolve({ query_id: 'q', response_headers: {} });
  };
  const inner = { command: run, exec: run, query: run, insert: run } as unknown as ChdbConnection;
  return { inner, statements };
}

type CommandParams = Parameters<ChdbDatabaseConnection['command']>[0];
const command = (query: string) => ({ query }) as CommandParams;

describe('ChdbDatabaseConnection', () => {
  it('given settings, when statements run, then the session is set up once and each statement reaches chDB as written', async () => {
    const { inner, statements } = recordingConnection();
    const connection = new ChdbDatabaseConnection(inner, 'shop', { async_insert: 0, date_time_input_format: 'basic', mutations_sync: '1' });

    await connection.command(command('INSERT INTO t (a) FORMAT JSONCompactColumns\n[[1,2]]'));
    await connection.command(command('SELECT 1'));

    expect(statements.map((s) => s.query)).toEqual([
      'SET async_insert = 0',
      "SET date_time_input_format = 'basic'",
      "SET mutations_sync = '1'",
      'USE {database:Identifier}',
      'INSERT INTO t (a) FORMAT JSONCompactColumns\n[[1,2]]',
      'SELECT 1',
    ]);
    // Nothing for chDB's connection to put in front of the statement as SET statements of its own.
    expect(statements.slice(4).map((s) => s.settings)).toEqual([undefined, undefined]);
  });

  it('given the database is missing at first, when it exists later, then the next statement sets the session up again', async () => {
    const { inner, statements } = recordingConnection(1);
    const connection = new ChdbDatabaseConnection(inner, 'shop', { async_insert: 0 });

    await expect(connection.command(command('SELECT 1'))).rejects.toThrow(/does not exist/);
    await connection.command(command('SELECT 2'));

    expect(statements.map((s) => s.query)).toEqual([
      'SET async_insert = 0',
      'SET async_insert = 0',
      'USE {database:Identifier}',
      'SELECT 2',
    ]);
  });

  it('refuses a setting name that is not a plain identifier, and quotes a text value', async () => {
    const { inner, statements } = recordingConnection();
    expect(() => new ChdbDatabaseConnection(inner, 'shop', { 'x; DROP TABLE t': 1 } as never)).toThrow(/Invalid setting name/);

    await new ChdbDatabaseConnection(inner, 'shop', { session_timezone: "it's\\" }).command(command('SELECT 1'));

    expect(statements[0]?.query).toBe("SET session_timezone = 'it\\'s\\\\'");
  });
});
