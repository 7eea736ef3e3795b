import { randomUUID } from 'node:crypto';
import { SqliteEventStore } from '../../../libs/event-store/src/sqlite/sqlite-event-store';
import type { EventStore } from '../../../libs/event-store/src/event-store.port';
import type { SerpFetchOutcome, SerpRequest } from '../serp-fetcher';
import type { CreditRefund } from './check-work';
import { CheckWorker, ProjectToCheck } from './check-worker';

const project: ProjectToCheck = {
  accountId: 'acc',
  ownDomains: ['shop.example'],
  serpTop: 50,
  keywords: Array.from({ length: 4 }, (_, i) => ({ keywordId: `k${i}`, value: `keyword ${i}`, geoCode: 'US', langCode: 'en' })),
};

const success = (domain: string): SerpFetchOutcome => ({
  kind: 'success', pagesRead: 1, aiOverview: [],
  organic: [{ position: 1, url: 'https://other.example/', title: 'o', domain: 'other.example', snippet: '' }, { position: 2, url: `https://${domain}/p`, title: 't', domain, snippet: '' }],
});

async function requestScrape(store: EventStore, batchId: string, keywordIds: string[]) {
  await store.appendToStream('account-acc', [{
    id: randomUUID(), type: 'ScrapeRequested',
    data: { batchId, projectId: 'p1', keywordIds, serpTop: 50, creditsPerCheck: 1, credits: keywordIds.length, requestedAt: '2026-05-01T00:00:00.000Z' },
  }], { expectedRevision: 'any' });
}

function workerFor(store: EventStore, partition: { index: number; count: number }, fetchSerp: (r: SerpRequest) => Promise<SerpFetchOutcome>, refunds: CreditRefund[] = []) {
  return new CheckWorker(
    { store, loadProject: async () => project, fetchSerp, refund: async (r) => void refunds.push(r), now: () => new Date('2026-05-01T00:00:01.000Z'), log: () => undefined },
    { concurrency: 2, partition, checkpointEveryMs: 10 },
  );
}

const resultsOf = async (store: EventStore) => (await store.readStream('checks-p1')).map((e) => ({ type: e.type, keywordId: (e.data as { keywordId: string }).keywordId }));
const until = async (probe: () => Promise<boolean>) => {
  for (let i = 0; i < 400 && !(await probe()); i++) await new Promise((r) => setTimeout(r, 10));
};

describe('CheckWorker', () => {
  let store: SqliteEventStore;
  beforeEach(() => {
    store = new SqliteEventStore(':memory:', { pollIntervalMs: 10 });
  });
  afterEach(async () => {
    await store.close();
  });

  it('given two partitions, each runs only its own batches and together they run every batch once', async () => {
    const seen: string[][] = [[], []];
    const workers = [0, 1].map((index) => workerFor(store, { index, count: 2 }, async (r) => (seen[index]!.push(r.keyword), success('shop.example'))));
    for (const w of workers) await w.start();
    for (let b = 0; b < 8; b++) await requestScrape(store, `batch-${b}`, ['k0']);
    await until(async () => (await store.readStream('checks-p1')).length === 8);
    for (const w of workers) {
      await w.idle();
      await w.stop();
    }
    expect(seen[0]!.length + seen[1]!.length).toBe(8);
    expect(seen[0]!.length).toBeGreaterThan(0);
    expect(seen[1]!.length).toBeGreaterThan(0);
    expect(await resultsOf(store)).toHaveLength(8);
  });

  it('stores the project\'s position and, for a failed check, a refund request that is paid once', async () => {
    const refunds: CreditRefund[] = [];
    const worker = workerFor(store, { index: 0, count: 1 }, async (r) => (r.keyword === 'keyword 1' ? { kind: 'failed', reason: 'blocked by Google', pagesRead: 1 } : success('shop.example')), refunds);
    await worker.start();
    await requestScrape(store, 'b1', ['k0', 'k1']);
    await until(async () => refunds.length === 1);
    await worker.idle();
    await worker.stop();
    const events = await store.readStream('checks-p1');
    const completed = events.find((e) => e.type === 'CheckCompleted')!;
    expect((completed.data as { position: { position: number } }).position.position).toBe(2);
    expect(refunds).toEqual([{ accountId: 'acc', batchId: 'b1', checkId: expect.stringMatching(/^[0-9a-f]{24}$/), credits: 1 }]);
  });

  it('does not move its checkpoint past an unfinished batch, so a new worker finishes it; results are stored once', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((r) => (release = r));
    const first = workerFor(store, { index: 0, count: 1 }, async (r) => {
      if (r.keyword === 'keyword 3') await gate; // stuck until the worker is gone
      return success('shop.example');
    });
    await first.start();
    await requestScrape(store, 'b1', ['k0', 'k1', 'k2', 'k3']);
    await until(async () => (await store.readStream('checks-p1')).length === 3);
    await new Promise((r) => setTimeout(r, 50)); // let a checkpoint be saved
    const [checkpoint] = await store.readStream('scraper-checkpoint-0-of-1', { direction: 'backwards', maxCount: 1 });
    const [request] = (await store.readAll()).filter((e) => e.type === 'ScrapeRequested');
    expect(checkpoint === undefined || (checkpoint.data as { position: number }).position < request!.position).toBe(true);

    // The first worker "dies" with the fourth check in flight; a second one takes over from the checkpoint.
    const second = workerFor(store, { index: 0, count: 1 }, async () => success('shop.example'));
    await second.start();
    await until(async () => (await store.readStream('checks-p1')).length === 4);
    await second.idle();
    release();
    await first.idle();
    await first.stop();
    await second.stop();
    const results = await resultsOf(store);
    expect(results.map((r) => r.keywordId).sort()).toEqual(['k0', 'k1', 'k2', 'k3']);
  });
});
