/**
 * serp-check latency. Two figures:
 * - serpCheckRoundTrip: what the event round trip alone adds (the api appends a live-check request,
 *   a scraper's consumer-group member takes it, appends the answer, the api reads it back), with a
 *   page that "loads" instantly, on one SQLite file;
 * - serpCheckFixtureGoogle: POST /api/tools/serp-check end to end over HTTP on a standalone app
 *   whose scraper loads a saved Google page from a local server in Chromium, next to the same page
 *   loaded straight through the fetcher (no events), so the difference is the round trip in place.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createApp } from '../apps/api/src/bootstrap';
import { SqliteEventStore } from '@rank/event-store/sqlite/sqlite-event-store';
import { loadConfig } from '@rank/platform/config/app-config';
import { systemClock } from '@rank/platform/tokens';
import { LiveCheckWorker } from '@rank/research/serp-check/live-check-worker';
import { LiveChecks } from '@rank/research/serp-check/live-checks';
import { FakeGoogle } from '@rank/serp/fetcher/test-support/fake-google';
import { readSavedSerp } from '@rank/serp/fetcher/test-support/saved-serp';
import type { SerpFetchOutcome } from '@rank/serp/fetcher';
import { CheckWorkerLifecycle } from '@rank/tracking/check/check-worker.lifecycle';
import type { BenchContext } from './benches';
import { BENCH_ADMIN_TOKEN, newBenchDirs, removeBenchDirs } from './support/bench-app';
import { recordFigure } from './support/results';
import { ms, quantile } from './support/stats';

const ROUND_TRIPS = 200;
/** serp-check allows 10 calls a minute per account: 3 accounts of 10. */
const HTTP_CALLS = 30;
const DIRECT_LOADS = 10;

const instantPage: SerpFetchOutcome = {
  kind: 'success',
  pagesRead: 1,
  aiOverview: [],
  organic: Array.from({ length: 10 }, (_, i) => ({
    position: i + 1,
    url: `https://site${i}.example/`,
    title: `Result ${i}`,
    domain: `site${i}.example`,
    snippet: 'snippet',
  })),
};

const spread = (samples: number[]) => `p50 ${ms(quantile(samples, 0.5))}, p95 ${ms(quantile(samples, 0.95))}`;

export async function run(context: BenchContext): Promise<void> {
  if (context.wants('serpCheckRoundTrip')) await roundTrip();
  if (context.wants('serpCheckFixtureGoogle')) await endToEnd();
}

async function roundTrip(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'serp-check-bench-'));
  const api = new SqliteEventStore(join(dir, 'events.sqlite'), { pollIntervalMs: 20 });
  const scraper = new SqliteEventStore(join(dir, 'events.sqlite'), { pollIntervalMs: 20 });
  const worker = new LiveCheckWorker(
    { store: scraper, fetchSerp: async () => instantPage, now: () => new Date(), log: console.warn },
    { concurrency: 2 },
  );
  try {
    worker.start();
    const liveChecks = new LiveChecks(api, systemClock, { serpCheckTimeoutMs: 10_000 });
    const samples: number[] = [];
    for (let i = 0; i < ROUND_TRIPS + 5; i++) {
      const started = performance.now();
      const answer = await liveChecks.check({ accountId: 'bench', keyword: `keyword ${i}`, geoCode: 'US', langCode: 'en' });
      if (answer.type !== 'LiveCheckAnswered') throw new Error(`round trip ${i}: ${answer.type}`);
      if (i >= 5) samples.push(performance.now() - started);
    }
    console.log(
      `serp-check event round trip (request appended, taken by a scraper store on the same SQLite file, answer read back), ${ROUND_TRIPS} runs: ${spread(samples)}`,
    );
    recordFigure('serpCheckRoundTrip', {
      apiMs: samples,
      note: 'live-check request -> scraper consumer group -> answer read back, instant page, two stores on one SQLite file',
    });
  } finally {
    await worker.stop();
    await api.close();
    await scraper.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function endToEnd(): Promise<void> {
  // Read before anything starts: a failure here must leave no server running, or the bench never exits.
  const page = readSavedSerp('fra50__persistent_browser_service__ai_overview.html');
  const google = await FakeGoogle.start();
  google.reset(() => ({ kind: 'page', html: page }));
  const dirs = newBenchDirs('serp-check');
  const running = await createApp(
    loadConfig({
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dirs.dataDir,
      CHDB_PATH: dirs.chdbPath,
      ADMIN_TOKEN: BENCH_ADMIN_TOKEN,
      LOG_LEVEL: 'error',
      PAGESPEED_BASE_URL: 'http://127.0.0.1:9',
      ROLES: 'api,projections,scraper',
      GOOGLE_BASE_URL: google.baseUrl,
      SCRAPER_MIN_INTERVAL_MS: '0',
    }),
  );
  const call = async (path: string, key: string, body: unknown) => {
    const response = await fetch(new URL(path, running.url), {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const json = (await response.json()) as any;
    if (response.status >= 300) throw new Error(`${path}: HTTP ${response.status} ${JSON.stringify(json)}`);
    return json;
  };
  try {
    const fetcher = running.app.get(CheckWorkerLifecycle);
    // The first load starts Chromium: not part of either figure.
    await fetcher.fetchSerp({ keyword: 'warm up', geoCode: 'US', langCode: 'en', depth: 10 });
    const direct: number[] = [];
    for (let i = 0; i < DIRECT_LOADS; i++) {
      const started = performance.now();
      const outcome = await fetcher.fetchSerp({ keyword: `direct ${i}`, geoCode: 'US', langCode: 'en', depth: 10 });
      if (outcome.kind !== 'success') throw new Error(`direct load ${i}: ${outcome.reason}`);
      direct.push(performance.now() - started);
    }
    const samples: number[] = [];
    let key = '';
    for (let i = 0; i < HTTP_CALLS; i++) {
      if (i % 10 === 0) key = (await call('/admin/accounts', BENCH_ADMIN_TOKEN, { name: `Bench ${i}` })).apiKey;
      const started = performance.now();
      const answer = await call('/api/tools/serp-check', key, { keyword: `how to boil eggs ${i}`, geo: 'US', lang: 'en' });
      samples.push(performance.now() - started);
      if (answer.data.serp.length === 0) throw new Error(`serp-check ${i} had no results`);
    }
    console.log(
      `serp-check over HTTP with the fixture Google (standalone, Chromium), ${HTTP_CALLS} calls: ${spread(samples)}; the same page through the fetcher alone: ${spread(direct)}`,
    );
    recordFigure('serpCheckFixtureGoogle', {
      apiMs: samples,
      rawMs: direct,
      note: 'POST /api/tools/serp-check end to end vs the fetcher alone (rawMs), saved Google page from a local server',
    });
  } finally {
    await running.close();
    removeBenchDirs(dirs);
    await google.close();
  }
}
