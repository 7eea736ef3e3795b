import { READS_AT_ONCE } from './clickhouse-read-store';
import { createReadStore } from './create-read-store';
import { QueryAbandoned } from './read-gate';
import { describeReadStoreContract } from './read-store.contract';
import type { ReadStore } from './read-store.port';
import { createTestReadStore, testChdbPath, uniqueTestDatabase, withDatabaseDroppedOnClose } from './testing/test-read-store';

describeReadStoreContract('chDB (embedded)', createTestReadStore);

describe('chDB read store', () => {
  const stores: ReadStore[] = [];
  const track = (store: ReadStore): ReadStore => {
    stores.push(store);
    return store;
  };
  afterEach(async () => {
    await Promise.all(stores.splice(0).map((store) => store.close()));
  });

  it('keeps the event loop turning while a long query runs', async () => {
    const store = track(await createTestReadStore());
    const tickTimes: number[] = [];
    const ticker = setInterval(() => tickTimes.push(Date.now()), 10);
    const started = Date.now();
    try {
      // sleepEachRow keeps the engine busy for ~1.2 s whatever the machine's speed; a query run on
      // the main thread would leave no room for a single tick until it returned.
      await store.query('SELECT sum(sleepEachRow(0.3)) AS slept FROM numbers(4) SETTINGS max_threads = 1, max_block_size = 1');
    } finally {
      clearInterval(ticker);
    }
    const elapsed = Date.now() - started;
    const gaps = tickTimes.slice(1).map((time, index) => time - tickTimes[index]);

    // Blocked, the loop would show one gap of over a second and almost no ticks; the margins
    // below leave room for a busy CI machine.
    expect(elapsed).toBeGreaterThanOrEqual(1000);
    expect(tickTimes.length).toBeGreaterThan(elapsed / 10 / 10);
    expect(Math.max(...gaps)).toBeLessThan(400);
  });

  it('hands chDB a couple of reads at once, and never runs one whose caller left while it waited', async () => {
    const store = track(await createTestReadStore());
    const watcher = track(await createTestReadStore());
    const gone = new AbortController();
    const slow = (n: number, signal?: AbortSignal) =>
      store.query(`SELECT sleepEachRow(0.25), ${n} AS gate_test_read FROM numbers(2) SETTINGS max_block_size = 1`, {}, { signal });
    const inEngine = async () =>
      (
        await watcher.query<{ query: string }>(
          `SELECT query FROM system.processes WHERE query LIKE '%AS gate_test_read FROM%' AND query NOT LIKE '%system.processes%'`,
        )
      ).map((row) => Number(/, (\d+) AS gate_test_read/.exec(row.query)![1]));
    // Given four reads of half a second, and a fifth whose caller goes while it waits
    const reads = [1, 2, 3, 4].map((n) => slow(n));
    const abandoned = slow(99, gone.signal);
    await new Promise((resolve) => setTimeout(resolve, 200));
    // then the engine has the first two at most (it runs one statement at a time, the other queued in it)
    const early = await inEngine();
    expect(early.length).toBeLessThanOrEqual(READS_AT_ONCE.embedded);
    expect(early.every((n) => n <= 2)).toBe(true);
    // and once the fifth's caller has gone it is dropped, never run, while the others all end
    gone.abort();
    await expect(abandoned).rejects.toBeInstanceOf(QueryAbandoned);
    const seen = new Set<number>();
    const watching = (async () => {
      for (let i = 0; i < 20; i++) {
        for (const n of await inEngine()) seen.add(n);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    })();
    await Promise.all([...reads, watching]);
    expect(seen.has(99)).toBe(false);
  });

  it('closes only once a query still running on it has ended, when chDB has let go of the directory', async () => {
    const store = await createReadStore({ database: 'default', chdbPath: testChdbPath() });
    const started = Date.now();
    // About 600 ms in the engine, whatever the machine's speed.
    const running = store.query<{ slept: string }>(
      'SELECT sum(sleepEachRow(0.2)) AS slept FROM numbers(3) SETTINGS max_threads = 1, max_block_size = 1',
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
    await store.close();
    // Without the wait, close() returned at once while chDB tore the connection down later, behind
    // the query, and refused to open another directory until then.
    expect(Date.now() - started).toBeGreaterThanOrEqual(500);
    expect(await running).toEqual([{ slept: '0' }]); // UInt64 comes back as a string
  });

  it('shares the engine between stores on the same path, and closing one leaves the other working', async () => {
    const first = await createTestReadStore();
    const second = track(await createTestReadStore());
    await second.command('CREATE TABLE survivors (a UInt8) ENGINE = MergeTree ORDER BY a');

    await first.close();
    await second.insert('survivors', [{ a: 1 }]);

    expect(await second.query('SELECT a FROM survivors')).toEqual([{ a: 1 }]);
  });

  it('refuses a second data directory while one is open, and says why', async () => {
    track(await createTestReadStore());

    const elsewhere = createReadStore({ database: uniqueTestDatabase(), chdbPath: `${testChdbPath()}-elsewhere` });

    await expect(elsewhere).rejects.toThrow(/one ClickHouse engine per process/);
  });

  it('keeps data on disk across stores for the same database', async () => {
    const database = uniqueTestDatabase('persisted');
    const writer = await createReadStore({ database, chdbPath: testChdbPath() });
    await writer.command('CREATE TABLE kept (a UInt8) ENGINE = MergeTree ORDER BY a');
    await writer.insert('kept', [{ a: 7 }]);
    await writer.close();

    const reader = track(withDatabaseDroppedOnClose(await createReadStore({ database, chdbPath: testChdbPath() })));

    expect(await reader.query('SELECT a FROM kept')).toEqual([{ a: 7 }]);
  });

  it('rejects a database name that is not a plain identifier', async () => {
    await expect(createReadStore({ database: 'x`; DROP DATABASE default', chdbPath: testChdbPath() })).rejects.toThrow(
      /Invalid database name/,
    );
  });

  it('refuses statements once closed, saying so', async () => {
    const store = await createTestReadStore();
    await store.close();

    await expect(store.insert('anything', [{ a: 1 }])).rejects.toThrow(`The read store for database ${store.database} is closed`);
    await expect(store.query('SELECT 1')).rejects.toThrow(/is closed/);
  });

  it('drops the test database on close', async () => {
    const store = await createTestReadStore();
    const observer = track(await createTestReadStore());
    await store.close();

    expect(await observer.query('SELECT name FROM system.databases WHERE name = {name:String}', { name: store.database })).toEqual([]);
  });
});
