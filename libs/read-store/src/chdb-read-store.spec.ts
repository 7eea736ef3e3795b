import { createReadStore } from './create-read-store';
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
