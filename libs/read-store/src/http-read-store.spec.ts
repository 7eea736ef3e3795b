import { createReadStore } from './create-read-store';
import { describeReadStoreContract } from './read-store.contract';
import { startChdbHttpServer, type ChdbHttpServer } from './testing/chdb-http-server';
import { testChdbPath, uniqueTestDatabase, withDatabaseDroppedOnClose } from './testing/test-read-store';

// The same contract as the embedded store, but through @clickhouse/client's real HTTP connection
// (URL parameters, request bodies, status codes, error parsing) against chDB behind HTTP.
let server: ChdbHttpServer;
beforeAll(async () => {
  server = await startChdbHttpServer({ chdbPath: testChdbPath() });
});
afterAll(async () => {
  await server.close();
});

describeReadStoreContract('HTTP (@clickhouse/client over the chDB HTTP server)', async () =>
  withDatabaseDroppedOnClose(
    await createReadStore({ clickhouseUrl: server.url, database: uniqueTestDatabase('http'), chdbPath: testChdbPath() }),
  ),
);

describe('chDB HTTP server', () => {
  it('answers /ping like a server', async () => {
    const response = await fetch(`${server.url}/ping`);

    expect(response.status).toBe(200);
    expect(await response.text()).toBe('Ok.\n');
  });

  it('keeps the engine running between requests, so that no request pays for a restart of chDB', async () => {
    const database = uniqueTestDatabase('kept');
    const run = async (sql: string) => {
      const response = await fetch(`${server.url}/`, { method: 'POST', body: sql });
      expect(response.status).toBe(200);
      return response.text();
    };
    await run(`CREATE DATABASE ${database}`);
    try {
      await run(`CREATE TABLE ${database}.kept (a UInt8) ENGINE = Memory`);
      await run(`INSERT INTO ${database}.kept VALUES (1)`);
      // A Memory table's rows live only in the running engine: a restart between requests drops them.
      expect(await run(`SELECT count() FROM ${database}.kept`)).toBe('1\n');
    } finally {
      await run(`DROP DATABASE ${database}`);
    }
  });

  it('reports an error with the status, exception-code header and body of a server', async () => {
    const response = await fetch(`${server.url}/?query=${encodeURIComponent('SELEC 1')}`);

    expect(response.status).toBe(400);
    expect(response.headers.get('x-clickhouse-exception-code')).toBe('62');
    expect(await response.text()).toMatch(/^Code: 62\. DB::Exception: Syntax error.*\(SYNTAX_ERROR\) \(version [\d.]+\)\n$/s);
  });

  it('answers an unknown table with 404 and its code', async () => {
    const response = await fetch(`${server.url}/`, { method: 'POST', body: 'SELECT * FROM default.no_such_table' });

    expect(response.status).toBe(404);
    expect(response.headers.get('x-clickhouse-exception-code')).toBe('60');
  });

  it('applies URL settings, default_format and database to that request only', async () => {
    const url = new URL(server.url);
    url.searchParams.set('query', "SELECT toString(getSetting('max_block_size')) AS block, currentDatabase() AS db");
    url.searchParams.set('default_format', 'JSONEachRow');
    url.searchParams.set('max_block_size', '1234');
    url.searchParams.set('database', 'system');
    const withSettings = JSON.parse(await (await fetch(url)).text());
    url.searchParams.delete('max_block_size');
    url.searchParams.delete('database');
    const withoutSettings = JSON.parse(await (await fetch(url)).text());

    expect(withSettings).toEqual({ block: '1234', db: 'system' });
    expect(withoutSettings.block).not.toBe('1234');
    expect(withoutSettings.db).toBe('default');
  });

  it('binds param_ values, including composite ones, as a server does', async () => {
    const url = new URL(server.url);
    url.searchParams.set('default_format', 'JSONEachRow');
    url.searchParams.set('param_s', "it\\'s\\ttabbed");
    url.searchParams.set('param_tags', "['o\\'neil','back\\\\slash']");
    url.searchParams.set('param_pairs', "{'a':[1,2],'b':[]}");
    url.searchParams.set('param_pair', "(7,'x')");
    const response = await fetch(url, {
      method: 'POST',
      body: 'SELECT {s:String} AS s, {tags:Array(String)} AS tags, {pairs:Map(String, Array(UInt8))} AS pairs, {pair:Tuple(UInt8, String)} AS pair',
    });

    expect(response.status).toBe(200);
    expect(JSON.parse(await response.text())).toEqual({
      s: "it's\ttabbed",
      tags: ["o'neil", 'back\\slash'],
      pairs: { a: [1, 2], b: [] },
      pair: [7, 'x'],
    });
  });

  it('takes INSERT data from the body after the statement in the URL', async () => {
    const database = uniqueTestDatabase('http_raw');
    const run = (query: string, body?: string) =>
      fetch(`${server.url}/?${new URLSearchParams({ query, database: 'default' })}`, { method: 'POST', body });
    await run(`CREATE DATABASE ${database}`);
    try {
      await run(`CREATE TABLE ${database}.t (a UInt8, b String) ENGINE = MergeTree ORDER BY a`);
      const insert = await run(`INSERT INTO ${database}.t FORMAT JSONEachRow`, '{"a":1,"b":"x"}\n{"a":2,"b":"y"}\n');
      const select = await run(`SELECT a, b FROM ${database}.t ORDER BY a FORMAT CSV`);

      expect(insert.status).toBe(200);
      expect(await select.text()).toBe('1,"x"\n2,"y"\n');
    } finally {
      await run(`DROP DATABASE ${database}`);
    }
  });

  it('checks credentials when configured, as createReadStore sends them', async () => {
    const guarded = await startChdbHttpServer({ chdbPath: testChdbPath(), user: 'tracker', password: 's3cret' });
    try {
      const database = uniqueTestDatabase('http_auth');
      const denied = createReadStore({
        clickhouseUrl: guarded.url,
        clickhouseUser: 'tracker',
        clickhousePassword: 'wrong',
        database,
        chdbPath: testChdbPath(),
      });
      await expect(denied).rejects.toMatchObject({ code: '516', type: 'AUTHENTICATION_FAILED' });

      const store = withDatabaseDroppedOnClose(
        await createReadStore({
          clickhouseUrl: guarded.url,
          clickhouseUser: 'tracker',
          clickhousePassword: 's3cret',
          database,
          chdbPath: testChdbPath(),
        }),
      );
      try {
        expect(await store.query('SELECT 1 AS one')).toEqual([{ one: 1 }]);
      } finally {
        await store.close();
      }
    } finally {
      await guarded.close();
    }
  });
});
