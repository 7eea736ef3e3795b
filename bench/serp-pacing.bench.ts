/**
 * What pacing costs: a 100-keyword work order (top 50, so five pages a check) read through three
 * proxies, with and without `SCRAPER_MIN_INTERVAL_MS`. The real SerpFetcher runs on a simulated clock:
 * every page load takes a fixed time and every wait is a timer on that clock, so the figures are the
 * fetcher's own scheduling (egress turns, jitter, the checks running at once), not this machine's
 * speed, and minutes of simulated time take milliseconds.
 */
import { SerpFetcher, serpFetcherConfig, type PageLoader } from '@rank/serp/fetcher';
import { parseProxyUrl, type ProxyConfig } from '@rank/serp/fetcher/serp-fetcher-config';
import type { SerpPage } from '@rank/serp/parser';

const KEYWORDS = 100;
const PROXIES = 3;
/** About what a result page takes to load in Chromium from Google. */
const PAGE_LOAD_MS = 1_500;
const INTERVALS_MS = [0, 1_000, 4_000];
const CHECKS_AT_ONCE = [2, 6];

/** A clock whose time moves only when every task waits: then it jumps to the earliest timer. */
class SimulatedClock {
  private time = 0;
  private readonly timers: { at: number; seq: number; resolve: () => void }[] = [];
  private seq = 0;

  now = (): number => this.time;

  sleep = (ms: number): Promise<void> =>
    new Promise((resolve) => {
      this.timers.push({ at: this.time + Math.max(0, ms), seq: this.seq++, resolve });
    });

  /** Runs `work` to its end, advancing time whenever nothing else can run. */
  async run<T>(work: Promise<T>): Promise<T> {
    let done = false;
    const result = work.finally(() => {
      done = true;
    });
    while (!done) {
      // Let every promise that can move, move (a macrotask turn drains the microtasks).
      await new Promise((resolve) => setImmediate(resolve));
      if (done || this.timers.length === 0) continue;
      this.timers.sort((a, b) => a.at - b.at || a.seq - b.seq);
      const next = this.timers.shift()!;
      this.time = Math.max(this.time, next.at);
      next.resolve();
    }
    return result;
  }
}

const results = (start: number) =>
  Array.from({ length: 10 }, (_, i) => ({
    position: i + 1,
    url: `https://site-${start + i}.example/`,
    title: 't',
    domain: `site-${start + i}.example`,
    snippet: '',
  }));

async function orderMinutes(minIntervalMs: number, checksAtOnce: number): Promise<{ minutes: number; requests: number; seed: number }> {
  const clock = new SimulatedClock();
  let requests = 0;
  const loader: PageLoader = {
    load: async ({ url }) => {
      requests++;
      await clock.sleep(PAGE_LOAD_MS);
      return { kind: 'loaded', status: 200, html: new URL(url).searchParams.get('start') ?? '0', finalUrl: url };
    },
    close: async () => undefined,
  };
  // The "page" is its start; every page has ten new results and a next link.
  const parse = (html: string): SerpPage => ({ kind: 'results', organic: results(Number(html)), aiOverview: [], hasNextPage: true });
  const proxies = Array.from({ length: PROXIES }, (_, i) => parseProxyUrl(`http://10.0.0.${i + 1}:3128`) as ProxyConfig);
  let seed = 42;
  const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
  const fetcher = new SerpFetcher(serpFetcherConfig({ proxies, minIntervalMs }), {
    loader,
    parse,
    userAgents: ['bench'],
    now: clock.now,
    sleep: clock.sleep,
    random,
  });

  const keywords = Array.from({ length: KEYWORDS }, (_, i) => `keyword ${i}`);
  const work = (async () => {
    const queue = [...keywords];
    await Promise.all(
      Array.from({ length: checksAtOnce }, async () => {
        for (let keyword = queue.shift(); keyword !== undefined; keyword = queue.shift()) {
          const outcome = await fetcher.fetchSerp({ keyword, geoCode: 'us', langCode: 'en', depth: 50 });
          if (outcome.kind !== 'success') throw new Error(`${keyword}: ${outcome.reason}`);
        }
      }),
    );
  })();
  await clock.run(work);
  return { minutes: clock.now() / 60_000, requests, seed };
}

export async function run(): Promise<void> {
  console.log(
    `serp-pacing: ${KEYWORDS} keywords, top 50 (5 pages each), ${PROXIES} proxies, ${PAGE_LOAD_MS} ms a page load (simulated time)`,
  );
  for (const checksAtOnce of CHECKS_AT_ONCE) {
    const unpaced = await orderMinutes(0, checksAtOnce);
    for (const interval of INTERVALS_MS) {
      const paced = interval === 0 ? unpaced : await orderMinutes(interval, checksAtOnce);
      const overhead = paced.minutes - unpaced.minutes;
      console.log(
        `  ${checksAtOnce} checks at once, SCRAPER_MIN_INTERVAL_MS=${interval}: ${paced.minutes.toFixed(1)} min for ${paced.requests} requests` +
          (interval === 0 ? '' : ` (+${overhead.toFixed(1)} min, x${(paced.minutes / unpaced.minutes).toFixed(2)} of unpaced)`),
      );
    }
  }
}

if (require.main === module) {
  run().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
