/**
 * Check work sharing: the dispatcher expands a 3,500-keyword work order into queued checks, then
 * 1, 2 and 4 scrapers (each its own store instance on one SQLite file, as separate processes would
 * be) share them through the consumer group. The page load is simulated by a fixed wait, so the
 * figures show what the work sharing adds and how throughput grows with scrapers, not Chromium's
 * speed. A second pass with no wait shows the ceiling of the group's own bookkeeping (claims, acks,
 * result appends) in one process. Takes about a minute.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { SqliteEventStore } from '@rank/event-store/sqlite/sqlite-event-store';
import type { SerpFetchOutcome } from '@rank/serp/fetcher';
import { CheckWorker, ProjectToCheck } from '@rank/tracking/check/check-worker';
import { WorkDispatcher } from '@rank/tracking/dispatch/work-dispatcher';

const KEYWORDS = 3_500;
const CHECKS_AT_ONCE = 4;
const PAGE_WAIT_MS = 50;
const SCRAPERS = [1, 2, 4];
/** Checks timed per run with a page wait (a whole batch would take minutes with one scraper). */
const TIMED_CHECKS = 600;

const project: ProjectToCheck = {
  accountId: 'bench-account',
  ownDomains: ['shop.example'],
  serpTop: 50,
  timeZone: 'UTC',
  keywords: Array.from({ length: KEYWORDS }, (_, i) => ({
    keywordId: `k${i}`,
    value: `keyword ${i}`,
    geoCode: 'US',
    langCode: 'en',
    addedAt: '2026-01-01T00:00:00.000Z',
  })),
};

const page: SerpFetchOutcome = {
  kind: 'success',
  pagesRead: 5,
  aiOverview: [],
  organic: Array.from({ length: 50 }, (_, i) => ({
    position: i + 1,
    url: `https://site${i}.example/page`,
    title: `Result ${i}`,
    domain: `site${i}.example`,
    snippet: '',
  })),
};

export async function run(): Promise<void> {
  console.log(`check work: a ${KEYWORDS}-keyword work order, scrapers of ${CHECKS_AT_ONCE} checks at once, SQLite file`);
  for (const scrapers of SCRAPERS) {
    const { dispatchMs, checksPerSecond } = await measure(scrapers, PAGE_WAIT_MS, TIMED_CHECKS);
    if (scrapers === SCRAPERS[0]) console.log(`  dispatching ${KEYWORDS} queued checks: ${dispatchMs.toFixed(0)} ms`);
    console.log(
      `  ${scrapers} scraper(s), ${PAGE_WAIT_MS} ms a check: ${checksPerSecond.toFixed(0)} checks/s (ideal ${((scrapers * CHECKS_AT_ONCE * 1000) / PAGE_WAIT_MS).toFixed(0)})`,
    );
  }
  const { checksPerSecond } = await measure(2, 0, KEYWORDS);
  console.log(
    `  bookkeeping ceiling, 2 scrapers, no page wait, whole batch: ${checksPerSecond.toFixed(0)} checks/s (claim, result append, ack; one process)`,
  );
}

async function measure(scrapers: number, waitMs: number, timedChecks: number): Promise<{ dispatchMs: number; checksPerSecond: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'check-work-bench-'));
  const file = join(dir, 'events.sqlite');
  const main = new SqliteEventStore(file, { pollIntervalMs: 20 });
  const stores = Array.from({ length: scrapers }, () => new SqliteEventStore(file, { pollIntervalMs: 20 }));
  const loadProject = async () => project;
  const dispatcher = new WorkDispatcher({
    store: main,
    loadProject,
    refund: async () => undefined,
    eraseProject: async () => undefined,
    log: console.warn,
  });
  try {
    await dispatcher.start();
    const dispatchStarted = performance.now();
    await main.appendToStream(
      'account-bench-account',
      [
        {
          id: randomUUID(),
          type: 'ScrapeRequested',
          data: {
            batchId: 'bench-batch',
            projectId: 'bench-project',
            keywordIds: project.keywords.map((k) => k.keywordId),
            serpTop: 50,
            creditsPerCheck: 1,
            credits: KEYWORDS,
            requestedAt: new Date().toISOString(),
          },
        },
      ],
      { expectedRevision: 'any' },
    );
    await dispatcher.caughtUp();
    const dispatchMs = performance.now() - dispatchStarted;

    let done = 0;
    let timedStart = 0;
    let timedEnd = 0;
    const workers = stores.map(
      (store) =>
        new CheckWorker(
          {
            store,
            loadProject,
            projectStillExists: async () => true,
            fetchSerp: async () => {
              if (waitMs > 0) await new Promise((resolve) => setTimeout(resolve, waitMs));
              done += 1;
              if (done === 1) timedStart = performance.now();
              if (done === timedChecks + 1) timedEnd = performance.now();
              return page;
            },
            refund: async () => undefined,
            now: () => new Date(),
            log: console.warn,
          },
          { concurrency: CHECKS_AT_ONCE },
        ),
    );
    for (const worker of workers) worker.start();
    while (timedEnd === 0 && done < KEYWORDS) await new Promise((resolve) => setTimeout(resolve, 20));
    const end = timedEnd || performance.now();
    await Promise.all(workers.map((worker) => worker.stop()));
    return { dispatchMs, checksPerSecond: (Math.min(done, timedChecks) * 1000) / (end - timedStart) };
  } finally {
    await dispatcher.stop();
    await Promise.all([main, ...stores].map((store) => store.close()));
    rmSync(dir, { recursive: true, force: true });
  }
}
