import { EgressPacer, JITTER_SHARE } from './egress-pacer';
import type { PageLoader } from './page-loader';
import { SerpFetcher } from './serp-fetcher';
import { serpFetcherConfig } from './serp-fetcher-config';
import { fakeResultsPage, parseFakeSerp, resultUrls } from './test-support/fake-serp';

describe('egress pacer', () => {
  it('hands out turns of one egress at least the interval apart, stretched by at most the jitter, other egresses apart', () => {
    let now = 1_000;
    const randoms = [0, 0.999, 0.5];
    const pacer = new EgressPacer(
      { minIntervalMs: 4_000, hourlyBudget: 0 },
      () => now,
      () => randoms.shift() ?? 0,
    );
    // Three requests at once on proxy-1: the first goes now, each next one interval (+ its jitter) later.
    expect([pacer.reserve('proxy-1'), pacer.reserve('proxy-1'), pacer.reserve('proxy-1')]).toEqual([
      0,
      4_000,
      4_000 + 4_000 * (1 + JITTER_SHARE * 0.999),
    ]);
    // Another egress is not held up by the first.
    expect(pacer.reserve('proxy-2')).toBe(0);
    // Once its turns are past, the egress waits only what is left of the interval.
    now += 20_000;
    expect(pacer.reserve('proxy-1')).toBe(0);
  });

  it('without an interval never waits', () => {
    const pacer = new EgressPacer({ minIntervalMs: 0, hourlyBudget: 0 }, () => 0, Math.random);
    expect([pacer.reserve('direct'), pacer.reserve('direct')]).toEqual([0, 0]);
  });

  it('keeps an hourly budget per egress, and says when a spent egress may ask again', () => {
    let now = 0;
    const pacer = new EgressPacer(
      { minIntervalMs: 0, hourlyBudget: 2 },
      () => now,
      () => 0,
    );
    pacer.reserve('direct');
    now = 10 * 60_000;
    pacer.reserve('direct');
    expect(pacer.hasBudget('direct')).toBe(false);
    expect(pacer.hasBudget('proxy-1')).toBe(true);
    // The first request leaves the hour at 60 min.
    expect(pacer.budgetBackAt('direct')).toBe(60 * 60_000);
    now = 60 * 60_000 + 1;
    expect(pacer.hasBudget('direct')).toBe(true);
    expect(pacer.budgetBackAt('direct')).toBeUndefined();
  });
});

describe('a fetcher whose every egress has spent its hourly budget', () => {
  it('fails the check as resting, saying when the first egress may ask again, and asks Google nothing more', async () => {
    let loads = 0;
    const loader: PageLoader = {
      load: async ({ url }) => (
        loads++,
        { kind: 'loaded', status: 200, html: fakeResultsPage({ urls: resultUrls(1, 10), hasNextPage: false }), finalUrl: url }
      ),
      close: async () => undefined,
    };
    const now = Date.parse('2026-05-04T07:00:00.000Z');
    const fetcher = new SerpFetcher(serpFetcherConfig({ hourlyBudget: 1 }), {
      loader,
      parse: parseFakeSerp,
      userAgents: ['test'],
      now: () => now,
    });
    const request = { keyword: 'garden shovels', geoCode: 'us', langCode: 'en', depth: 50 } as const;
    expect(await fetcher.fetchSerp(request)).toMatchObject({ kind: 'success' });
    expect(await fetcher.fetchSerp(request)).toEqual({
      kind: 'failed',
      pagesRead: 0,
      cause: 'egress_resting',
      backAt: now + 3_600_000,
      reason: 'page 1 (start=0): every egress has spent its hourly budget of requests; the first may ask again at 2026-05-04T08:00:00.000Z',
    });
    expect(loads).toBe(1);
  });
});
