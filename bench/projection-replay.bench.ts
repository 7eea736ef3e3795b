/**
 * Projection replay speed: events appended to a fresh embedded event store (SQLite), then a
 * ProjectionRunner with every projection (ALL_PROJECTIONS) timed from zero until
 * waitUntilCaughtUp(), into a fresh read store (chDB) migrated like the app's. This is what
 * `npm run projections:rebuild` and a first start on an imported log do.
 *
 * Two logs, because the two projections cost differently:
 *  - records: 50,000 project events (KeywordsAdded of 10 keywords, NoteSaved) over 200 projects;
 *  - tracking: 10,000 checks (CheckCompleted with 50 organic results, some with AI Overview
 *    sources; 1% CheckFailed), about 52 rows each.
 * Each log is appended once, then replayed MIN_RUNS times after a warm-up, each time into a fresh
 * database: the figures replayRecords (events/s) and replayChecks (check results/s, i.e. checks).
 * Beside the time, each run's process CPU time (JavaScript and chDB's threads together): on a shared
 * machine the time mostly says how much of the CPU the run got, the CPU time what the replay costs.
 * That CPU time is split into the JavaScript thread's and the rest (chDB's threads, V8's helpers), and
 * turned into the most this machine could replay were every core busy with it all the time: what the
 * replay costs, not how the work is scheduled, sets that ceiling.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { readModelMigrations } from '@rank/platform/stores/open-stores';
import { DEFAULT_SETTINGS } from '@rank/projects/domain/project-settings';
import type { CheckEvent, RankedResult } from '@rank/tracking/domain/check.events';
import { createEventStore } from '@rank/event-store/create-event-store';
import type { EventStore, NewEvent } from '@rank/event-store/event-store.port';
import { createReadStore } from '@rank/read-store/create-read-store';
import { ALL_PROJECTIONS } from '@rank/projector/all-projections';
import { ProjectionRunner } from '@rank/projector/projection-runner';
import { keywordTexts } from './support/keyword-texts';
import { Random } from './support/random';
import { median, perSecond, thousands } from './support/stats';
import type { BenchContext } from './benches';
import { MIN_RUNS, recordFigure } from './support/results';
import { threadCpuMs } from './support/thread-cpu';

const ACCOUNT_ID = 'a'.repeat(24);
const PROJECTS = 200;
const KEYWORD_EVENTS_PER_PROJECT = 50;
const KEYWORDS_PER_EVENT = 10;
const NOTES_PER_PROJECT = 199;
const CHECKS = 10_000;
const RESULTS_PER_CHECK = 50;
const APPEND_BATCH = 100;

interface Log {
  label: string;
  figure: 'replayRecords' | 'replayChecks';
  /** Appends the log; returns how many events and how many read-model rows they should give. */
  append(store: EventStore): Promise<{ events: number; rows: Record<string, number> }>;
}

export async function run(context: BenchContext): Promise<void> {
  const root = mkdtempSync(join(tmpdir(), 'rank-tracker-bench-replay-'));
  // chDB: one engine per process, so both logs use one data path, each its own database.
  const chdbPath = join(root, 'chdb');
  try {
    for (const [index, log] of [recordsLog(), trackingLog()].entries()) {
      if (context.wants(log.figure)) await replay(log, join(root, `events-${index}.sqlite`), chdbPath, `replay_${index}`);
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

async function replay(log: Log, sqlitePath: string, chdbPath: string, database: string): Promise<void> {
  const eventStore = await createEventStore({ sqlitePath });
  try {
    const appendStarted = performance.now();
    const { events, rows } = await log.append(eventStore);
    const appendMs = performance.now() - appendStarted;
    const expectedRows = Object.values(rows).reduce((a, b) => a + b, 0);
    console.log(`${log.label}: ${thousands(events)} events, ${thousands(expectedRows)} read-model rows`);
    console.log(
      `  append (batches of ${APPEND_BATCH}): ${(appendMs / 1000).toFixed(1)} s, ${thousands(perSecond(events, appendMs))} events/s`,
    );

    const times: number[] = [];
    const cpuTimes: number[] = [];
    const jsCpuTimes: number[] = [];
    let peakRss = 0;
    for (let run = 0; run <= MIN_RUNS; run++) {
      const replayed = await replayOnce(eventStore, rows, chdbPath, `${database}_${run}`);
      peakRss = Math.max(peakRss, replayed.peakRss);
      // Run 0 warms the JIT and chDB up and is not counted.
      if (run > 0) {
        times.push(replayed.ms);
        cpuTimes.push(replayed.cpuMs);
        if (replayed.jsCpuMs !== undefined) jsCpuTimes.push(replayed.jsCpuMs);
      }
    }
    const rates = times.map((t) => perSecond(events, t));
    console.log(
      `  replay from zero to waitUntilCaughtUp(), ${MIN_RUNS} runs after a warm-up: median ${(median(times) / 1000).toFixed(2)} s, ` +
        `${thousands(median(rates))} events/s (${thousands(Math.min(...rates))}-${thousands(Math.max(...rates))}), ` +
        `${thousands(perSecond(expectedRows, median(times)))} rows/s; CPU time median ${(median(cpuTimes) / 1000).toFixed(2)} s ` +
        `(${(Math.min(...cpuTimes) / 1000).toFixed(2)}-${(Math.max(...cpuTimes) / 1000).toFixed(2)}), ` +
        `${thousands(perSecond(events, median(cpuTimes)))} events per CPU-second`,
    );
    const cores = availableParallelism();
    const unit = log.figure === 'replayChecks' ? 'checks/s' : 'events/s';
    // Every core busy with this replay and nothing else: the most its CPU cost allows here.
    const ceiling = perSecond(events * cores, median(cpuTimes));
    // Per-thread CPU time is read on Linux only; elsewhere every run lacks it.
    const perThread = jsCpuTimes.length === cpuTimes.length;
    const split = perThread
      ? `JavaScript thread ${(median(jsCpuTimes) / 1000).toFixed(2)} s, other threads (chDB, V8's helpers) ` +
        `${(median(cpuTimes.map((cpu, run) => cpu - jsCpuTimes[run]!)) / 1000).toFixed(2)} s`
      : 'no per-thread CPU time on this platform';
    // The replay's JavaScript is one thread, so its CPU time alone caps the rate too, whatever the cores.
    const jsCeiling = perThread ? `; its one JavaScript thread at most ${thousands(perSecond(events, median(jsCpuTimes)))} ${unit}` : '';
    console.log(
      `  CPU time per replay (medians): ${split}; with all ${cores} cores on it, at most ${thousands(ceiling)} ${unit}${jsCeiling}`,
    );
    recordFigure(log.figure, {
      apiMs: times,
      ops: rates,
      opsUnit: unit,
      peakRssMb: peakRss / 1024 / 1024,
      note:
        `${log.label}: ${events} events from an embedded event store into a fresh chDB database; apiMs is the whole replay; ` +
        `process CPU time median ${Math.round(median(cpuTimes))} ms (${Math.round(Math.min(...cpuTimes))}-${Math.round(Math.max(...cpuTimes))}); ` +
        `${split}; CPU-bound ceiling with all ${cores} cores ${thousands(ceiling)} ${unit}${jsCeiling}`,
    });
  } finally {
    await eventStore.close();
  }
}

/** One replay from zero into a fresh database, checked row for row; its time (ms) and the RSS after it. */
async function replayOnce(
  eventStore: EventStore,
  rows: Record<string, number>,
  chdbPath: string,
  database: string,
): Promise<{ ms: number; cpuMs: number; jsCpuMs: number | undefined; peakRss: number }> {
  const readStore = await createReadStore({ database, chdbPath });
  try {
    await readStore.migrate(readModelMigrations());
    const runner = new ProjectionRunner(eventStore, readStore, ALL_PROJECTIONS, { name: 'bench', log: (m) => console.warn(m) });
    let peakRss = process.memoryUsage().rss;
    const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 50);
    const started = performance.now();
    const cpuBefore = process.cpuUsage();
    // The replay's JavaScript runs on this thread; everything else the process spends is other threads'.
    const jsCpuBefore = threadCpuMs();
    try {
      await runner.start();
      await runner.waitUntilCaughtUp(10 * 60_000);
    } finally {
      clearInterval(sampler);
    }
    const ms = performance.now() - started;
    const cpu = process.cpuUsage(cpuBefore);
    const jsCpuAfter = threadCpuMs();
    await runner.stop();
    for (const [table, expected] of Object.entries(rows)) {
      const [row] = await readStore.query<{ n: string }>(`SELECT count() AS n FROM ${table}`);
      if (Number(row?.n) !== expected) throw new Error(`${table}: ${row?.n} rows after replay, expected ${expected}`);
    }
    return {
      ms,
      cpuMs: (cpu.user + cpu.system) / 1000,
      jsCpuMs: jsCpuBefore === undefined || jsCpuAfter === undefined ? undefined : jsCpuAfter - jsCpuBefore,
      peakRss: Math.max(peakRss, process.memoryUsage().rss),
    };
  } finally {
    await readStore.command('DROP DATABASE IF EXISTS {database:Identifier}', { database }).catch(() => undefined);
    await readStore.close();
  }
}

async function appendAll(store: EventStore, streamName: string, events: { type: string; data: Record<string, unknown> }[]): Promise<void> {
  for (let i = 0; i < events.length; i += APPEND_BATCH) {
    const batch: NewEvent[] = events.slice(i, i + APPEND_BATCH).map((e) => ({ id: randomUUID(), type: e.type, data: e.data }));
    await store.appendToStream(streamName, batch, { expectedRevision: 'any' });
  }
}

const objectId = (random: Random) => random.hex(12);

function recordsLog(): Log {
  return {
    figure: 'replayRecords',
    label: `records projection (${PROJECTS} projects: KeywordsAdded x${KEYWORDS_PER_EVENT} keywords, NoteSaved)`,
    async append(store) {
      const random = new Random(7);
      const texts = keywordTexts(KEYWORD_EVENTS_PER_PROJECT * KEYWORDS_PER_EVENT);
      const at = new Date().toISOString();
      const projectIds = Array.from({ length: PROJECTS }, () => objectId(random));
      await appendAll(
        store,
        `workspace-${ACCOUNT_ID}`,
        projectIds.map((projectId, i) => ({
          type: 'ProjectCreated',
          data: {
            projectId,
            accountId: ACCOUNT_ID,
            settings: { ...DEFAULT_SETTINGS, name: `Shop ${i}`, domain: `shop-${i}.example` },
            folder: null,
            createdAt: at,
          },
        })),
      );
      let events = PROJECTS;
      for (const projectId of projectIds) {
        const content: { type: string; data: Record<string, unknown> }[] = [
          { type: 'ProjectOwnerRecorded', data: { projectId, accountId: ACCOUNT_ID } },
        ];
        for (let k = 0; k < KEYWORD_EVENTS_PER_PROJECT; k++) {
          const keywords = texts
            .slice(k * KEYWORDS_PER_EVENT, (k + 1) * KEYWORDS_PER_EVENT)
            .map((value) => ({ keywordId: objectId(random), value, geoCode: 'US', langCode: 'en' }));
          content.push({ type: 'KeywordsAdded', data: { keywords, addedAt: at } });
        }
        for (let n = 0; n < NOTES_PER_PROJECT; n++) {
          const date = new Date(Date.UTC(2025, 0, 1) + n * 86_400_000).toISOString().slice(0, 10);
          content.push({
            type: 'NoteSaved',
            data: {
              noteId: objectId(random),
              date,
              text: `Release ${n}: new category pages and internal links`,
              color: 'info',
              savedAt: at,
            },
          });
        }
        await appendAll(store, `project-${projectId}`, content);
        events += content.length;
      }
      return {
        events,
        rows: {
          projects: PROJECTS,
          project_folders: PROJECTS,
          keywords: PROJECTS * KEYWORD_EVENTS_PER_PROJECT * KEYWORDS_PER_EVENT,
          notes: PROJECTS * NOTES_PER_PROJECT,
        },
      };
    },
  };
}

function trackingLog(): Log {
  return {
    figure: 'replayChecks',
    label: `tracking projection (CheckCompleted with ${RESULTS_PER_CHECK} results, 1% CheckFailed)`,
    async append(store) {
      const random = new Random(11);
      const projectId = objectId(random);
      const keywordIds = Array.from({ length: 500 }, () => objectId(random));
      const started = Date.UTC(2025, 0, 1);
      const rows = { keyword_updates: 0, checks_by_id: 0, serp_results: 0, ai_overview_sources: 0 };
      const events: CheckEvent[] = [];
      for (let i = 0; i < CHECKS; i++) {
        const base = { checkId: objectId(random), batchId: 'bench', projectId, keywordId: keywordIds[i % keywordIds.length]! };
        const at = new Date(started + i * 60_000).toISOString();
        rows.keyword_updates++;
        rows.checks_by_id++;
        if (random.chance(0.01)) {
          events.push({
            type: 'CheckFailed',
            data: { ...base, failedAt: at, reason: 'Timed out after 3 attempts', accountId: ACCOUNT_ID, refundCredits: 0 },
          });
          continue;
        }
        const results: RankedResult[] = Array.from({ length: RESULTS_PER_CHECK }, (_, r) => {
          const domain = `rival-${random.int(0, 299)}.example`;
          return {
            position: r + 1,
            url: `https://www.${domain}/guide/${random.int(0, 9999)}`,
            title: `Result ${r + 1}: the complete buying guide and review`,
            domain,
          };
        });
        const aiOverview = random.chance(0.25) ? results.slice(0, 4) : [];
        rows.serp_results += results.length;
        rows.ai_overview_sources += aiOverview.length;
        const own = random.int(0, RESULTS_PER_CHECK);
        events.push({
          type: 'CheckCompleted',
          data: {
            ...base,
            completedAt: at,
            serpTop: 50,
            position: own === 0 ? { position: 0, url: '', title: '', domain: '' } : results[own - 1]!,
            results,
            aiOverview,
          },
        });
      }
      // One stream for the lot: the projection reads the log, so how results split into streams does not matter here.
      await appendAll(store, `checks-${projectId}-replay`, events);
      return { events: events.length, rows };
    },
  };
}
