/**
 * The ranking reads over real HTTP, each next to the plain ClickHouse query that computes the same
 * answer on the same data (support/raw-ranking-queries.ts); the ratio is our overhead.
 *
 * Data: one project with 3,500 keywords (created over HTTP, so the keyword list the reads take from
 * the event store is real) and 365 days of daily checks, about 1.28 million keyword updates, written
 * straight into the ClickHouse tables (support/ranking-seed.ts says how and why; result lists cover
 * the last 30 days only). The export is also measured for peak memory while its body streams.
 *
 * Endpoints not served yet (absent from /api/openapi.json) print "not available yet"; one that is
 * served but fails is reported and fails the bench after the others have run. Takes about 2 minutes:
 * some 15 s of seeding, the rest the reads (the 365-day export and keyword-updates take seconds each).
 */
import { performance } from 'node:perf_hooks';
import { utcDay } from '@rank/domain/calendar-date';
import type { ReadStore } from '@rank/read-store/read-store.port';
import { BenchApp, startBenchApp } from './support/bench-app';
import { runLoad } from './support/load';
import { collectGarbage, MemorySampler } from './support/memory-sampler';
import { addKeywords, createProject, FULL_PROJECT_KEYWORDS } from './support/projects';
import {
  inEngine,
  intoRows,
  rawFullExport,
  rawKeywordUpdates,
  rawPages,
  rawPositionHistory,
  rawSummaryExport,
  SqlRunner,
  Window,
} from './support/raw-ranking-queries';
import { wireSize } from './support/wire-size';
import { RESULT_LIST_DAYS, SEEDED_DAYS, seedRankings } from './support/ranking-seed';
import { availablePaths } from './support/routes';
import { megabytes, median, ms, ratio, thousands } from './support/stats';
import type { BenchContext } from './benches';
import { MIN_RUNS, recordFigure } from './support/results';

const DOMAIN = 'bench-shop.example';
const DAY_MS = 86_400_000;
const EXPORT_RUNS = MIN_RUNS;

interface ReadCase {
  label: string;
  /** Its entry in bench-results.json. */
  figure: string;
  /** The OpenAPI path whose presence says the endpoint exists. */
  path: string;
  query: Record<string, string>;
  runs: number;
  /** What `inspect` counts, for the printed line. */
  unit: string;
  raw(run: SqlRunner): Promise<number>;
  /**
   * Checks one answer (parsed once, before timing) and says how many items it holds: a fast answer
   * that is empty or wrong must fail, not print a good figure.
   */
  inspect(body: any): number;
}

/** keyword-updates: every keyword present; returns the number of updates. */
function inspectKeywordUpdates(body: any): number {
  const entries = Object.values(body?.data ?? {}) as { updates: unknown[] }[];
  if (entries.length !== FULL_PROJECT_KEYWORDS) throw new Error(`answer has ${entries.length} keywords, expected ${FULL_PROJECT_KEYWORDS}`);
  const updates = entries.reduce((n, e) => n + e.updates.length, 0);
  if (updates === 0) throw new Error('answer has no updates');
  return updates;
}

export async function run(context: BenchContext): Promise<void> {
  const app = await startBenchApp();
  const failures: string[] = [];
  try {
    const { apiKey } = await app.openAccount();
    const projectId = await createProject(app, apiKey, 'Ranking shop', DOMAIN);
    const keywordIds = await addKeywords(app, apiKey, projectId, FULL_PROJECT_KEYWORDS);

    const now = new Date();
    const today = utcDay(now);
    const store = app.running.stores.readStore;
    const seedStarted = performance.now();
    const seed = await seedRankings(store, { projectId, domain: DOMAIN, keywordIds, lastDay: today, now });
    console.log(
      `seeded ${thousands(FULL_PROJECT_KEYWORDS)} keywords x ${SEEDED_DAYS} days in ${((performance.now() - seedStarted) / 1000).toFixed(1)} s: ` +
        `${thousands(seed.keywordUpdates)} keyword updates (${thousands(seed.failedChecks)} failed), ` +
        `${thousands(seed.serpResults)} result rows and ${thousands(seed.aiOverviewSources)} AI Overview sources for the last ${RESULT_LIST_DAYS} days`,
    );
    for (const t of seed.timings) {
      console.log(`  ${t.label}: ${(t.ms / 1000).toFixed(1)} s${t.rows ? `, ${thousands((t.rows / t.ms) * 1000)} rows/s` : ''}`);
    }

    const yearAgo = utcDay(new Date(now.getTime() - 365 * DAY_MS));
    const window = (startDate: string): Window => ({
      from: new Date(`${startDate}T00:00:00.000Z`),
      to: new Date(Date.parse(`${today}T00:00:00.000Z`) + DAY_MS),
    });
    const monthAgo = utcDay(new Date(now.getTime() - 30 * DAY_MS));
    const cases: ReadCase[] = [
      {
        label: 'keyword-updates (default: 30 days, daily)',
        figure: 'keywordUpdates30d',
        path: '/api/projects/keyword-updates',
        query: { projectId },
        runs: 5,
        unit: 'updates',
        raw: (r) => rawKeywordUpdates(r, projectId, window(monthAgo), 'daily'),
        inspect: inspectKeywordUpdates,
      },
      {
        label: 'keyword-updates (365 days, weekly)',
        figure: 'keywordUpdates365dWeekly',
        path: '/api/projects/keyword-updates',
        query: { projectId, startDate: yearAgo, aggregation: 'weekly' },
        runs: 5,
        unit: 'updates',
        raw: (r) => rawKeywordUpdates(r, projectId, window(yearAgo), 'weekly'),
        inspect: inspectKeywordUpdates,
      },
      {
        label: 'position-history (a check of the latest day)',
        figure: 'positionHistory',
        path: '/api/projects/position-history',
        query: { keywordUpdateId: seed.latestRankingCheckId },
        runs: 20,
        unit: 'results, dropped and AI sources',
        raw: (r) => rawPositionHistory(store, r, seed.latestRankingCheckId),
        inspect: (body) => {
          const results = body?.data?.resultList?.length ?? 0;
          if (results < 30) throw new Error(`resultList has ${results} results, expected at least 30`);
          return results + (body.data.droppedDomains?.length ?? 0) + (body.data.aiOverviewResults?.length ?? 0);
        },
      },
      {
        label: 'pages',
        figure: 'pages',
        path: '/api/projects/pages',
        query: { projectId },
        runs: 10,
        unit: 'pages',
        raw: (r) => rawPages(r, projectId, now),
        inspect: (body) => {
          const pages = body?.data?.length ?? 0;
          if (pages === 0) throw new Error('answer has no pages');
          return pages;
        },
      },
    ];

    const paths = await availablePaths(app.url);
    const missing = new Set<string>();
    console.log(`\nranking reads (median of N sequential requests after 1 warm-up; raw = plain ClickHouse SQL, same data, same chDB):`);
    for (const c of cases.filter((c) => context.wants(c.figure))) {
      if (!paths.has(c.path)) {
        missing.add(c.path);
        console.log(`  ${c.label}: not available yet (${c.path} is not in /api/openapi.json)`);
        continue;
      }
      try {
        await measureRead(app, apiKey, store, c);
      } catch (error) {
        failures.push(`${c.label}: ${String(error)}`);
        console.log(`  ${c.label}: FAILED: ${String(error)}`);
      }
    }

    const exportCases = [
      {
        figure: 'csvFull365d',
        label: 'export (full CSV, 365 days)',
        format: 'full',
        raw: (r: SqlRunner) => rawFullExport(store, r, projectId, window(yearAgo)),
      },
      {
        figure: 'csvSummary365d',
        label: 'export (summary CSV, 365 days)',
        format: 'summary',
        raw: (r: SqlRunner) => rawSummaryExport(r, projectId, window(yearAgo)),
      },
    ];
    const exportPath = '/api/projects/export';
    for (const c of exportCases.filter((c) => context.wants(c.figure))) {
      if (!paths.has(exportPath)) {
        missing.add(exportPath);
        console.log(`  ${c.label}: not available yet (${exportPath} is not in /api/openapi.json)`);
        continue;
      }
      try {
        await measureExport(
          app,
          apiKey,
          store,
          c.figure,
          c.label,
          `${exportPath}?${new URLSearchParams({ projectId, format: c.format, startDate: yearAgo })}`,
          c.raw,
        );
      } catch (error) {
        failures.push(`${c.label}: ${String(error)}`);
        console.log(`  ${c.label}: FAILED: ${String(error)}`);
      }
    }

    // Bytes on the wire: the same answers asked for without compression, with gzip and with brotli.
    const wireCases = [
      {
        figure: 'keywordUpdates30d',
        label: 'keyword-updates, 30 days',
        path: `/api/projects/keyword-updates?${new URLSearchParams({ projectId })}`,
      },
      {
        figure: 'keywordUpdates365dWeekly',
        label: 'keyword-updates, 365 days weekly',
        path: `/api/projects/keyword-updates?${new URLSearchParams({ projectId, startDate: yearAgo, aggregation: 'weekly' })}`,
      },
      {
        figure: 'csvFull365d',
        label: 'full CSV, 365 days',
        path: `${exportPath}?${new URLSearchParams({ projectId, format: 'full', startDate: yearAgo })}`,
      },
    ];
    for (const c of wireCases.filter((c) => context.wants(c.figure))) {
      try {
        await measureWire(app, apiKey, c.label, c.path);
      } catch (error) {
        failures.push(`bytes on the wire, ${c.label}: ${String(error)}`);
        console.log(`  bytes on the wire, ${c.label}: FAILED: ${String(error)}`);
      }
    }
    if (missing.size > 0) console.log(`not available yet: ${[...missing].join(', ')}`);
  } finally {
    await app.close();
  }
  if (failures.length > 0) throw new Error(`${failures.length} ranking read(s) failed:\n  ${failures.join('\n  ')}`);
}

async function measureRead(app: BenchApp, apiKey: string, store: ReadStore, c: ReadCase): Promise<void> {
  const url = `${app.url}${c.path}?${new URLSearchParams(c.query)}`;
  const items = c.inspect(await app.json('GET', `${c.path}?${new URLSearchParams(c.query)}`, { key: apiKey }));
  const http = await runLoad({ url, headers: { authorization: `Bearer ${apiKey}` }, connections: 1, requests: c.runs, warmupRequests: 1 });
  if (http.errors > 0) throw new Error(`${http.errors} of ${c.runs} requests failed, first: ${http.firstError}`);

  const raw = await timeBaseline(store, c.runs, c.raw);
  const httpMs = median(http.latencies);
  recordFigure(c.figure, {
    apiMs: http.latencies,
    rawMs: raw.rowsTimes,
    ops: [(http.requests / http.elapsedMs) * 1000],
    opsUnit: 'req/s',
    note: c.label,
  });
  console.log(
    `  ${c.label}: HTTP ${ms(httpMs)} (${megabytes(http.bytes / http.requests)}, ${thousands(items)} ${c.unit}), raw ${ms(raw.rowsMs)} (${thousands(raw.rows)} rows; ` +
      `in ClickHouse alone ${ms(raw.engineMs)}), overhead ${ratio(httpMs, raw.rowsMs)} [N=${c.runs}]`,
  );
}

/** Median times of a baseline, rows into JavaScript and in the engine alone, after one warm-up each. */
async function timeBaseline(store: ReadStore, runs: number, baseline: (run: SqlRunner) => Promise<number>) {
  const median_ = async (runner: SqlRunner) => {
    let rows = await baseline(runner);
    const times: number[] = [];
    for (let i = 0; i < runs; i++) {
      const started = performance.now();
      rows = await baseline(runner);
      times.push(performance.now() - started);
    }
    return { ms: median(times), times, rows };
  };
  const intoJs = await median_(intoRows(store));
  const engine = await median_(inEngine(store));
  if (engine.rows !== intoJs.rows) throw new Error(`baseline counts differ: ${intoJs.rows} rows, count() ${engine.rows}`);
  return { rowsMs: intoJs.ms, rowsTimes: intoJs.times, engineMs: engine.ms, rows: intoJs.rows };
}

/**
 * The export streamed on this thread, a chunk at a time and never kept, so the memory figures are
 * the server's (and its ClickHouse engine's: same process), not a client holding the file.
 */
async function measureExport(
  app: BenchApp,
  apiKey: string,
  store: ReadStore,
  figure: string,
  label: string,
  pathAndQuery: string,
  baseline: (run: SqlRunner) => Promise<number>,
): Promise<void> {
  const runs: { totalMs: number; firstByteMs: number; bytes: number; baselineRss: number; rssGrowth: number; heapGrowth: number }[] = [];
  // Run 0 is the warm-up, not counted.
  for (let i = 0; i <= EXPORT_RUNS; i++) {
    collectGarbage();
    const sampler = new MemorySampler(10);
    const started = performance.now();
    // Uncompressed, like the raw baseline: what compression costs and saves is measureWire's figure.
    const response = await fetch(`${app.url}${pathAndQuery}`, {
      headers: { authorization: `Bearer ${apiKey}`, 'accept-encoding': 'identity' },
      signal: AbortSignal.timeout(300_000),
    });
    const firstByteMs = performance.now() - started;
    if (response.status !== 200 || !response.body) throw new Error(`HTTP ${response.status}: ${(await response.text()).slice(0, 300)}`);
    const contentType = response.headers.get('content-type') ?? '';
    if (!contentType.startsWith('text/csv')) throw new Error(`content-type ${contentType}, expected text/csv`);
    let bytes = 0;
    const reader = response.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      bytes += value.byteLength;
      sampler.sample();
    }
    const totalMs = performance.now() - started;
    const peaks = sampler.stop();
    if (i > 0)
      runs.push({
        totalMs,
        firstByteMs,
        bytes,
        baselineRss: peaks.baselineRss,
        rssGrowth: peaks.peakRss - peaks.baselineRss,
        heapGrowth: peaks.peakHeapUsed - peaks.baselineHeapUsed,
      });
  }

  const raw = await timeBaseline(store, EXPORT_RUNS, baseline);
  const httpMs = median(runs.map((r) => r.totalMs));
  recordFigure(figure, {
    apiMs: runs.map((r) => r.totalMs),
    rawMs: raw.rowsTimes,
    peakRssMb: Math.max(...runs.map((r) => r.baselineRss + r.rssGrowth)) / 1024 / 1024,
    note: `${pathAndQuery.split('?')[0]}, streamed and counted, never kept`,
  });
  console.log(
    `  ${label}: HTTP ${ms(httpMs)} (first byte ${ms(median(runs.map((r) => r.firstByteMs)))}, ${megabytes(runs[0]!.bytes)}), ` +
      `raw ${ms(raw.rowsMs)} (${thousands(raw.rows)} rows of day cells; in ClickHouse alone ${ms(raw.engineMs)}), ` +
      `overhead ${ratio(httpMs, raw.rowsMs)} [N=${EXPORT_RUNS}]`,
  );
  console.log(
    `    peak growth while streaming (10 ms samples + one per chunk; RSS is the whole process, chDB included, ` +
      `and does not shrink back, so a later run may grow less): ` +
      runs
        .map((r, i) => `#${i + 1} heapUsed +${megabytes(r.heapGrowth)}, RSS +${megabytes(r.rssGrowth)} (from ${megabytes(r.baselineRss)})`)
        .join('; '),
  );
}

/**
 * One answer's size on the wire and time to the last byte, uncompressed and as each encoding the
 * service offers (the client asks for one at a time), with the compression ratio.
 */
async function measureWire(app: BenchApp, apiKey: string, label: string, pathAndQuery: string): Promise<void> {
  const sizes = [];
  for (const encoding of ['identity', 'gzip', 'br'] as const) {
    sizes.push(await wireSize(`${app.url}${pathAndQuery}`, { authorization: `Bearer ${apiKey}` }, encoding));
  }
  const plain = sizes[0]!.bytes;
  console.log(
    `  bytes on the wire, ${label}: ` +
      sizes
        .map(
          (s) =>
            `${s.encoding === 'identity' ? 'uncompressed' : s.encoding} ${megabytes(s.bytes)} in ${ms(s.ms)}${s.encoding === 'identity' ? '' : ` (${ratio(plain, s.bytes)} smaller)`}`,
        )
        .join(', '),
  );
}
