import { readModelMigrations } from '@rank/platform/stores/open-stores';
import type { ReadStore } from '@rank/read-store/read-store.port';
import { createTestReadStore } from '@rank/read-store/testing/test-read-store';

/**
 * Migration 015: check_snapshots writes parts of up to 128 MiB in the compact format (one data file),
 * where ClickHouse's default (10 MiB) makes a wide part (two files per column and per array's sizes).
 * A replay's merges of its 2,000-page batches are such parts; kept compact, a replay of 10,000 checks
 * cost chDB 0.86-1.07 s of CPU instead of 1.11-1.25 s on the build machine.
 */
describe('check_snapshots parts (migration 015)', () => {
  let store: ReadStore;

  beforeAll(async () => {
    store = await createTestReadStore();
    await store.migrate(readModelMigrations());
  });

  afterAll(async () => {
    await store?.close();
  });

  /** One INSERT of `checks` result pages of 50 results each, about 6 KB a page, as one part: checks first, first + 1, .... */
  async function insertPages(first: number, checks: number): Promise<void> {
    await store.command(
      `INSERT INTO check_snapshots (project_id, keyword_id, check_id, checked_at, status, position, failure_reason, source,
                                    positions, urls, titles, domains, ai_positions, ai_urls, ai_titles, ai_domains, version)
       SELECT 'p1', concat('k', toString(number % 500)), concat('c', toString(number)),
              toDateTime64('2025-01-01 00:00:00', 3, 'UTC') + number * 60, 'success', 3, '', 'browser',
              arrayMap(i -> toUInt16(i), range(1, 51)),
              arrayMap(i -> concat('https://www.rival-', toString(cityHash64(number, i) % 300), '.example/guide/', toString(i)), range(1, 51)),
              arrayMap(i -> concat('Result ', toString(i), ': the complete buying guide and review'), range(1, 51)),
              arrayMap(i -> concat('rival-', toString(cityHash64(number, i) % 300), '.example'), range(1, 51)),
              [], [], [], [], number + 1
       FROM numbers({first:UInt32}, {checks:UInt32})`,
      { first, checks },
    );
  }

  const parts = () =>
    store.query<{ part_type: string; bytes: string }>(
      `SELECT part_type, toString(data_uncompressed_bytes) AS bytes FROM system.parts
       WHERE database = currentDatabase() AND table = 'check_snapshots' AND active`,
    );

  it('writes a part above the default 10 MiB as one compact part, and merges into one too', async () => {
    await insertPages(0, 2_000);
    await insertPages(2_000, 2_000);
    const written = await parts();
    expect(written).toHaveLength(2);
    // Above ClickHouse's default threshold, so the default would have made each one wide.
    for (const part of written) expect(Number(part.bytes)).toBeGreaterThan(10 * 1024 * 1024);
    expect(written.map((part) => part.part_type)).toEqual(['Compact', 'Compact']);

    await store.command('OPTIMIZE TABLE check_snapshots FINAL');
    const merged = await parts();
    expect(merged).toHaveLength(1);
    expect(merged[0]!.part_type).toBe('Compact');
    const [count] = await store.query<{ n: string }>('SELECT toString(count()) AS n FROM check_snapshots');
    expect(count!.n).toBe('4000');
  });
});
