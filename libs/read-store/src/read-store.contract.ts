import { SERVER_ALIGNED_SETTINGS } from './clickhouse-settings';
import type { Migration, ReadStore } from './read-store.port';

/**
 * What every ReadStore must do, whatever engine is behind it. Each adapter's spec runs this suite,
 * so the expected values below are the same for chDB, the HTTP path and a real server.
 *
 * `makeStore` returns a new store in a database of its own; the suite closes every store it made.
 */
export function describeReadStoreContract(name: string, makeStore: () => Promise<ReadStore>): void {
  describe(`ReadStore contract: ${name}`, () => {
    const opened: ReadStore[] = [];
    const open = async (): Promise<ReadStore> => {
      const store = await makeStore();
      opened.push(store);
      return store;
    };
    let store: ReadStore;

    beforeEach(async () => {
      store = await open();
    });

    afterEach(async () => {
      await Promise.all(opened.splice(0).map((each) => each.close()));
    });

    it('runs statements in its own database', async () => {
      expect(await store.query('SELECT currentDatabase() AS db')).toEqual([{ db: store.database }]);
    });

    it('round-trips typed columns through insert and query', async () => {
      await store.command(`CREATE TABLE typed
        (
            id UInt64,
            label String,
            delta Int32,
            score Float64,
            note Nullable(String),
            tags Array(String),
            checked_at DateTime64(3, 'UTC'),
            device LowCardinality(String)
        ) ENGINE = MergeTree ORDER BY id`);
      await store.insert('typed', [
        {
          id: '18446744073709551615',
          label: 'it\'s a "test" \\ with tab\tand\nnewline',
          delta: -2147483648,
          score: 0.1 + 0.2,
          note: null,
          tags: ["o'neil", 'a,b', ''],
          checked_at: new Date('2024-03-05T06:07:08.009Z'),
          device: 'mobile',
        },
        {
          id: 1n,
          label: 'ünïcødé ✓',
          delta: 7,
          score: -1.5e-300,
          note: 'present',
          tags: [],
          checked_at: '2024-12-31 23:59:59.999',
          device: 'desktop',
        },
      ]);

      const rows = await store.query('SELECT * FROM typed ORDER BY id');

      expect(rows).toEqual([
        {
          id: '1',
          label: 'ünïcødé ✓',
          delta: 7,
          score: -1.5e-300,
          note: 'present',
          tags: [],
          checked_at: '2024-12-31 23:59:59.999',
          device: 'desktop',
        },
        {
          id: '18446744073709551615',
          label: 'it\'s a "test" \\ with tab\tand\nnewline',
          delta: -2147483648,
          score: 0.30000000000000004,
          note: null,
          tags: ["o'neil", 'a,b', ''],
          checked_at: '2024-03-05 06:07:08.009',
          device: 'mobile',
        },
      ]);
    });

    it('binds a time from the first days the store keeps, and one with milliseconds, to DateTime and DateTime64 alike', async () => {
      // A unix timestamp under nine digits is not read as one: 1970-01-01 was refused (a 500 on a read
      // from that day) and 1970-01-01T00:00:01 read as the first of this year's January.
      const times = ['1970-01-01T00:00:00.000Z', '1970-01-01T00:00:01.000Z', '1971-06-01T00:00:00.000Z', '1970-01-02T00:00:00.500Z'];
      for (const time of times) {
        const [row] = await store.query<{ at: string; whole: string }>(
          "SELECT toString({at:DateTime64(3, 'UTC')}) AS at, toString(toDateTime({at:DateTime64(3, 'UTC')}, 'UTC')) AS whole",
          { at: new Date(time) },
        );
        expect({ time, at: row!.at }).toEqual({ time, at: time.replace('T', ' ').replace('Z', '') });
      }
      const [row] = await store.query<{ at: string }>("SELECT toString({at:DateTime('UTC')}) AS at", {
        at: new Date('1970-01-01T00:00:01Z'),
      });
      expect(row!.at).toBe('1970-01-01 00:00:01');
    });

    it('binds typed parameters and returns 64-bit integers as strings', async () => {
      const rows = await store.query(
        `SELECT {u:UInt64} AS u, {i:Int64} AS i, {small:Int32} AS small, {f:Float64} AS f,
                {s:String} AS s, {missing:Nullable(String)} AS missing, {present:Nullable(Int32)} AS present,
                {tags:Array(String)} AS tags, {ids:Array(UInt32)} AS ids,
                {at:DateTime64(3, 'UTC')} AS at, {day:Date} AS day, {lc:LowCardinality(String)} AS lc,
                toUInt64(9007199254740993) AS computed`,
        {
          u: '18446744073709551615',
          i: -9223372036854775808n,
          small: -5,
          f: 2.5,
          s: "quote ' backslash \\ tab \t newline \n end",
          missing: null,
          present: 42,
          tags: ["it's", 'back\\slash', 'tab\there'],
          ids: [3, 1, 2],
          at: new Date('2024-01-02T03:04:05.678Z'),
          day: '2024-02-29',
          lc: 'desktop',
        },
      );

      expect(rows).toEqual([
        {
          u: '18446744073709551615',
          i: '-9223372036854775808',
          small: -5,
          f: 2.5,
          s: "quote ' backslash \\ tab \t newline \n end",
          missing: null,
          present: 42,
          tags: ["it's", 'back\\slash', 'tab\there'],
          ids: [3, 1, 2],
          at: '2024-01-02 03:04:05.678',
          day: '2024-02-29',
          lc: 'desktop',
          computed: '9007199254740993',
        },
      ]);
    });

    it('returns rows as TabSeparatedRaw bytes: values unescaped, a tab between them, a newline after each row', async () => {
      const raw = await store.queryRaw(
        `SELECT number AS n, concat('{"q":"', {s:String}, '","back":"\\\\"}') AS json, toString(number * 1.5) AS f FROM numbers(2)`,
        { s: "it's ünïcode" },
      );
      expect(Buffer.isBuffer(raw)).toBe(true);
      // One backslash in the value, one in the text: nothing escaped; UTF-8 as it is.
      expect(raw.toString('utf8')).toBe(`0\t{"q":"it's ünïcode","back":"\\"}\t0\n1\t{"q":"it's ünïcode","back":"\\"}\t1.5\n`);
      expect((await store.queryRaw('SELECT 1 WHERE 0')).length).toBe(0);
    });

    it('returns a big answer whole, however many chunks it arrives in', async () => {
      const raw = await store.queryRaw('SELECT number, repeat({pad:String}, 20) FROM numbers({rows:UInt32})', { pad: 'é', rows: 200_000 });
      const lines = raw.toString('utf8').split('\n');
      expect(lines).toHaveLength(200_001);
      expect(lines[0]).toBe(`0\t${'é'.repeat(20)}`);
      expect(lines[199_999]).toBe(`199999\t${'é'.repeat(20)}`);
      expect(lines[200_000]).toBe('');
    });

    it('keeps a hostile parameter a value, never SQL', async () => {
      await store.command('CREATE TABLE victims (name String) ENGINE = MergeTree ORDER BY name');
      const hostile = "x'; DROP TABLE victims; --";
      await store.insert('victims', [{ name: 'alice' }, { name: hostile }]);

      const echoed = await store.query('SELECT {name:String} AS name', { name: hostile });
      const matches = await store.query('SELECT name FROM victims WHERE name = {name:String}', { name: hostile });
      await store.command('ALTER TABLE victims DELETE WHERE name = {name:String}', { name: "alice' OR 1=1 --" });

      expect(echoed).toEqual([{ name: hostile }]);
      expect(matches).toEqual([{ name: hostile }]);
      expect(await store.query('SELECT name FROM victims ORDER BY name')).toEqual([{ name: 'alice' }, { name: hostile }]);
    });

    it('rejects table names that are not plain identifiers', async () => {
      await expect(store.insert('victims; DROP TABLE x', [{ a: 1 }])).rejects.toThrow(/Invalid table name/);
    });

    it('parses DateTime text the way a server does (basic, not best effort)', async () => {
      await store.command("CREATE TABLE times (at DateTime64(3, 'UTC')) ENGINE = MergeTree ORDER BY at");

      await expect(store.insert('times', [{ at: '2024-01-02T03:04:05Z' }])).rejects.toThrow(/Cannot parse|cannot be parsed/i);
      expect(await store.query("SELECT toString(toDateTime(0)) AS epoch, toString(toDate('2024-06-30')) AS day")).toEqual([
        { epoch: '1970-01-01 00:00:00', day: '2024-06-30' },
      ]);
    });

    it('runs every statement, the first and the later ones, inserts included, with the server-aligned settings', async () => {
      const names = Object.keys(SERVER_ALIGNED_SETTINGS);
      const expected = Object.fromEntries(Object.entries(SERVER_ALIGNED_SETTINGS).map(([name, value]) => [name, String(value)]));
      const settingsNow = async () => {
        const [row] = await store.query<Record<string, string>>(
          `SELECT ${names.map((name) => `toString(getSetting('${name}')) AS ${name}`).join(', ')}`,
        );
        return row;
      };
      // Booleans read back as 'true'/'false' through getSetting; the settings give them as 0/1.
      const normalise = (row: Record<string, string> | undefined) =>
        Object.fromEntries(Object.entries(row ?? {}).map(([name, value]) => [name, value.replace(/^true$/, '1').replace(/^false$/, '0')]));

      expect(normalise(await settingsNow())).toEqual(expected);
      await store.command('CREATE TABLE setting_probe (tz String DEFAULT timezone()) ENGINE = MergeTree ORDER BY tz');
      await store.insert('setting_probe', [{ tz: 'given' }]);
      await store.command('INSERT INTO setting_probe (tz) SELECT timezone()');
      expect(normalise(await settingsNow())).toEqual(expected);
      expect(await store.query('SELECT tz FROM setting_probe ORDER BY tz')).toEqual([{ tz: 'UTC' }, { tz: 'given' }]);
    });

    it('applies migrations once each, in numeric order, and records them', async () => {
      const createTable: Migration = {
        name: '001_create_positions',
        statements: ['CREATE TABLE IF NOT EXISTS positions (keyword_id String) ENGINE = MergeTree ORDER BY keyword_id'],
      };
      const addColumn: Migration = {
        name: '002_add_rank',
        statements: ['ALTER TABLE positions ADD COLUMN rank UInt16', "INSERT INTO positions VALUES ('kw-1', 3)"],
      };
      const addIndex: Migration = {
        name: '010_add_url',
        statements: ["ALTER TABLE positions ADD COLUMN url String DEFAULT ''"],
      };

      // Given out of order: 002 only works after 001.
      const first = await store.migrate([addColumn, createTable]);
      const second = await store.migrate([createTable, addColumn]);
      const third = await store.migrate([addIndex, addColumn, createTable]);

      expect(first).toEqual(['001_create_positions', '002_add_rank']);
      expect(second).toEqual([]);
      expect(third).toEqual(['010_add_url']);
      // The INSERT of 002 ran exactly once.
      expect(await store.query('SELECT keyword_id, rank, url FROM positions')).toEqual([{ keyword_id: 'kw-1', rank: 3, url: '' }]);
      expect(await store.query('SELECT name FROM schema_migrations ORDER BY name')).toEqual([
        { name: '001_create_positions' },
        { name: '002_add_rank' },
        { name: '010_add_url' },
      ]);
    });

    it('does not record a migration whose statement fails, nor run the ones after it', async () => {
      const broken: Migration = { name: '001_broken', statements: ['CREATE TABLE fine (a UInt8) ENGINE = Memory', 'CREATE TABL oops'] };
      const later: Migration = { name: '002_later', statements: ['CREATE TABLE later (a UInt8) ENGINE = Memory'] };

      await expect(store.migrate([broken, later])).rejects.toThrow(/001_broken failed at statement 2 of 2/);

      expect(await store.query('SELECT name FROM schema_migrations')).toEqual([]);
      expect(await store.query("SELECT name FROM system.tables WHERE database = currentDatabase() AND name IN ('fine', 'later')")).toEqual([
        { name: 'fine' },
      ]);
    });

    it('writes rows whose keys the table does not have, without those keys, as JSONEachRow always did', async () => {
      await store.command('CREATE TABLE loose_rows (id String, n UInt8) ENGINE = MergeTree ORDER BY id');

      // An event stored by an older version may carry a field that no column takes any more.
      await store.insert('loose_rows', [
        { id: 'a', n: 1, retired_field: 'x' },
        { id: 'b', n: 2, retired_field: 'y' },
      ]);

      expect(await store.query('SELECT id, n FROM loose_rows ORDER BY id')).toEqual([
        { id: 'a', n: 1 },
        { id: 'b', n: 2 },
      ]);
    });

    it('gives the latest version of a row with FINAL, however often it was re-inserted', async () => {
      await store.command(`CREATE TABLE latest_positions
        (keyword_id String, position UInt16, version UInt64)
        ENGINE = ReplacingMergeTree(version) ORDER BY keyword_id`);
      const v1 = { keyword_id: 'kw-1', position: 9, version: 1 };
      const v2 = { keyword_id: 'kw-1', position: 4, version: 2 };
      const other = { keyword_id: 'kw-2', position: 1, version: 1 };

      // Separate inserts, as a replay writes them: v2 arrives before a replayed v1.
      await store.insert('latest_positions', [v1, other]);
      await store.insert('latest_positions', [v2]);
      await store.insert('latest_positions', [v1]);
      await store.insert('latest_positions', [v2, other]);

      expect(await store.query('SELECT keyword_id, position, version FROM latest_positions FINAL ORDER BY keyword_id')).toEqual([
        { keyword_id: 'kw-1', position: 4, version: '2' },
        { keyword_id: 'kw-2', position: 1, version: '1' },
      ]);
    });

    it("rejects a syntax error with ClickHouse's code and message", async () => {
      const failure = store.query('SELEC 1');

      await expect(failure).rejects.toThrow(/Syntax error/);
      await expect(failure).rejects.toMatchObject({ code: '62', type: 'SYNTAX_ERROR' });
      await expect(store.command('CREATE TABLE (')).rejects.toMatchObject({ code: '62' });
      await expect(store.query('SELECT * FROM no_such_table')).rejects.toMatchObject({ code: '60', type: 'UNKNOWN_TABLE' });
    });

    it('keeps two databases apart', async () => {
      const other = await open();
      expect(other.database).not.toEqual(store.database);
      for (const each of [store, other]) {
        await each.command('CREATE TABLE shared_name (owner String) ENGINE = MergeTree ORDER BY owner');
        await each.insert('shared_name', [{ owner: each.database }]);
      }

      expect(await store.query('SELECT owner FROM shared_name')).toEqual([{ owner: store.database }]);
      expect(await other.query('SELECT owner FROM shared_name')).toEqual([{ owner: other.database }]);
      await other.command('DROP TABLE shared_name');
      expect(await store.query('SELECT count() AS n FROM shared_name')).toEqual([{ n: '1' }]);
    });

    it('treats an empty insert as nothing to do', async () => {
      await store.command('CREATE TABLE empty_target (a UInt8) ENGINE = MergeTree ORDER BY a');
      await store.insert('empty_target', []);
      expect(await store.query('SELECT count() AS n FROM empty_target')).toEqual([{ n: '0' }]);
    });
  });
}
