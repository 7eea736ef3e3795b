/**
 * Read store speed on the embedded engine (chDB) through the same adapter the app uses: insert
 * throughput of 1,000,000 narrow rows sent in batches (the JSONEachRow path projections take,
 * serialisation included), then the time of a simple aggregation over them. Uses a temporary data
 * directory and database, removed afterwards. Takes well under 30 s.
 */
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createReadStore } from '@rank/read-store/create-read-store';

const TOTAL_ROWS = 1_000_000;
const BATCH_ROWS = 50_000;
const KEYWORDS = 3_500;

export async function run(): Promise<void> {
  // chDB binds one data directory per process; this bench releases it before returning, so the
  // benches run after it may open their own.
  const chdbPath = join(tmpdir(), `read-store-bench-${process.pid}`);
  const store = await createReadStore({ database: `bench_${process.pid}`, chdbPath });
  try {
    await store.command(`CREATE TABLE keyword_positions
      (keyword_id UInt32, day Date, position UInt16)
      ENGINE = MergeTree ORDER BY (keyword_id, day)`);

    const started = performance.now();
    for (let offset = 0; offset < TOTAL_ROWS; offset += BATCH_ROWS) {
      const rows = [];
      for (let i = offset; i < offset + BATCH_ROWS; i++) {
        rows.push({ keyword_id: i % KEYWORDS, day: dayText(Math.floor(i / KEYWORDS)), position: ((i * 7919) % 100) + 1 });
      }
      await store.insert('keyword_positions', rows);
    }
    const insertSeconds = (performance.now() - started) / 1000;

    const aggregationStarted = performance.now();
    const [summary] = await store.query<{ keywords: string; rows: string }>(
      `SELECT uniqExact(keyword_id) AS keywords, sum(n) AS rows FROM
         (SELECT keyword_id, count() AS n, avg(position) AS average FROM keyword_positions GROUP BY keyword_id)`,
    );
    const aggregationMs = performance.now() - aggregationStarted;

    console.log(`read-store (chDB): ${TOTAL_ROWS.toLocaleString('en')} rows in batches of ${BATCH_ROWS.toLocaleString('en')}`);
    console.log(`  insert: ${(TOTAL_ROWS / insertSeconds).toFixed(0)} rows/s (${insertSeconds.toFixed(2)} s)`);
    console.log(`  average position per keyword (${summary.keywords} keywords, ${summary.rows} rows): ${aggregationMs.toFixed(1)} ms`);
  } finally {
    await store.command('DROP DATABASE IF EXISTS {database:Identifier}', { database: store.database }).catch(() => undefined);
    await store.close();
    rmSync(chdbPath, { recursive: true, force: true });
  }
}

function dayText(dayIndex: number): string {
  return new Date(Date.UTC(2025, 0, 1) + dayIndex * 86_400_000).toISOString().slice(0, 10);
}
