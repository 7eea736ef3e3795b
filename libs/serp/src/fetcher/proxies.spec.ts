import type { BrowserThread } from '../browser/browser-thread';
import { createSerpFetcher, GOOGLE_CONSENT_SOCS, serpFetcherConfigFromEnv, type SerpFetcher, type SerpFetchOutcome } from './';
import { FakeGoogle, type FakeGoogleHandler } from './test-support/fake-google';
import { FAKE_CAPTCHA_PAGE, fakeResultsPage, parseFakeSerp, resultUrls } from './test-support/fake-serp';
import { ForwardProxy } from './test-support/forward-proxy';
import { launchOfflineBrowserThread } from './test-support/offline-chromium';

/** Two local forward proxies in front of the fake Google; the fake Google sees which one a request came through. */

let browser: BrowserThread;
let google: FakeGoogle;
let proxyA: ForwardProxy;
let proxyB: ForwardProxy;
const fetchers: SerpFetcher[] = [];
const REST_MS = 10 * 60_000;

beforeAll(async () => {
  [browser, google, proxyA, proxyB] = await Promise.all([
    launchOfflineBrowserThread(),
    FakeGoogle.start(),
    ForwardProxy.start({ name: 'A', credentials: { username: 'scraper', password: 's3cret:pw' } }),
    ForwardProxy.start({ name: 'B' }),
  ]);
});

beforeEach(() => {
  proxyA.forwarded.length = 0;
  proxyB.forwarded.length = 0;
});

afterEach(async () => {
  await Promise.all(fetchers.splice(0).map((fetcher) => fetcher.close()));
});

afterAll(async () => {
  await Promise.all([google?.close(), proxyA?.close(), proxyB?.close()]);
  if (browser) await browser.close();
});

/** A fetcher over both proxies, configured the way an operator would (and as `env` says), with a clock the test moves. */
function newFetcher(clock: { now: number }, env: Record<string, string> = {}): SerpFetcher {
  const config = serpFetcherConfigFromEnv({
    GOOGLE_BASE_URL: google.baseUrl,
    SCRAPER_PROXIES: `${proxyA.url}, ${proxyB.url}`,
    SCRAPER_BLOCK_REST_MS: String(REST_MS),
    SCRAPER_RETRY_BASE_DELAY_MS: '10',
    SCRAPER_RETRY_MAX_DELAY_MS: '40',
    ...env,
  });
  const fetcher = createSerpFetcher({
    browser,
    parse: parseFakeSerp,
    config: { ...config, navigationTimeoutMs: 10_000, subresourceHosts: [] },
    now: () => clock.now,
  });
  fetchers.push(fetcher);
  return fetcher;
}

const check = { keyword: 'proxy test', geoCode: 'us', langCode: 'en', depth: 50 } as const;
const onePage = fakeResultsPage({ urls: resultUrls(1, 10), hasNextPage: false });

/** One result page for everyone, except a captcha for requests through the proxies in `blocked`. */
function googleBlocking(blocked: Set<string>): FakeGoogleHandler {
  return (request) => {
    const via = String(request.headers['x-test-proxy'] ?? 'direct');
    return { kind: 'page', html: blocked.has(via) ? FAKE_CAPTCHA_PAGE : onePage };
  };
}

function kinds(outcomes: SerpFetchOutcome[]): string[] {
  return outcomes.map((outcome) => outcome.kind);
}

it('sends each request through the proxies in turn (with credentials where needed), never directly', async () => {
  google.reset(googleBlocking(new Set()));
  const fetcher = newFetcher({ now: Date.now() });

  const outcomes = [];
  for (let i = 0; i < 4; i++) outcomes.push(await fetcher.fetchSerp(check));

  expect(kinds(outcomes)).toEqual(['success', 'success', 'success', 'success']);
  expect([proxyA.searches, proxyB.searches]).toEqual([2, 2]);
  expect(google.searches.map((request) => request.headers['x-test-proxy'])).toEqual(['A', 'B', 'A', 'B']);
  // Each proxy has its own browser context, and each starts with Google's consent cookie.
  expect(google.searches.map((request) => request.headers.cookie)).toEqual(Array(4).fill(`SOCS=${GOOGLE_CONSENT_SOCS}`));
});

it('rests a blocked proxy: the check is retried once on the other one, later checks avoid it until the rest is over', async () => {
  const blocked = new Set(['A']);
  google.reset(googleBlocking(blocked));
  const clock = { now: Date.parse('2025-01-01T00:00:00Z') };
  const fetcher = newFetcher(clock);

  const first = await fetcher.fetchSerp(check);
  expect(first.kind).toBe('success');
  expect([proxyA.searches, proxyB.searches]).toEqual([1, 1]);

  const next = [await fetcher.fetchSerp(check), await fetcher.fetchSerp(check)];
  expect(kinds(next)).toEqual(['success', 'success']);
  expect([proxyA.searches, proxyB.searches]).toEqual([1, 3]);

  blocked.clear();
  clock.now += REST_MS;
  expect((await fetcher.fetchSerp(check)).kind).toBe('success');
  expect(proxyA.searches).toBe(2);
});

it('fails after one retry when every proxy is blocked, then sends nothing while they rest', async () => {
  google.reset(googleBlocking(new Set(['A', 'B'])));
  const clock = { now: Date.parse('2025-01-01T00:00:00Z') };
  const fetcher = newFetcher(clock);

  const first = await fetcher.fetchSerp(check);
  const second = await fetcher.fetchSerp(check);

  expect(google.searches).toHaveLength(2);
  expect([proxyA.searches, proxyB.searches]).toEqual([1, 1]);
  if (first.kind !== 'failed' || second.kind !== 'failed') throw new Error('expected both checks to fail');
  expect(first.reason).toMatch(/blocked by Google \(proxy 127\.0\.0\.1:\d+: captcha page; proxy 127\.0\.0\.1:\d+: captcha page\)/);
  expect(first.reason).not.toContain('s3cret');
  expect(second.reason).toMatch(/all 2 proxies are resting after Google blocked them; the first is back at 2025-01-01T00:10:00\.000Z/);
});

describe('proxies said to be in a country (SCRAPER_PROXIES entries ending in #DE)', () => {
  const viaProxy = () => google.searches.map((request) => request.headers['x-test-proxy']);
  const inGermany = { ...check, geoCode: 'de', langCode: 'de' } as const;
  // Pacing is tested on its own; here it would only add its 4 s between two searches of one proxy.
  const UNPACED = { SCRAPER_MIN_INTERVAL_MS: '0' };

  it("sends a country's searches through its own proxy alone, and other countries' through the proxy of no country", async () => {
    google.reset(googleBlocking(new Set()));
    const fetcher = newFetcher({ now: Date.now() }, { SCRAPER_PROXIES: `${proxyA.url}#DE, ${proxyB.url}`, ...UNPACED });

    const outcomes = [];
    for (const search of [inGermany, inGermany, check, check]) outcomes.push(await fetcher.fetchSerp(search));

    expect(kinds(outcomes)).toEqual(['success', 'success', 'success', 'success']);
    // Without countries the two proxies would take turns: A, B, A, B.
    expect(viaProxy()).toEqual(['A', 'A', 'B', 'B']);
  });

  it("fails a country's checks while its proxies rest, instead of sending them from abroad; other countries go on", async () => {
    google.reset(googleBlocking(new Set(['A'])));
    const clock = { now: Date.parse('2025-01-01T00:00:00Z') };
    const fetcher = newFetcher(clock, { SCRAPER_PROXIES: `${proxyA.url}#de, ${proxyB.url}`, ...UNPACED });

    const blocked = await fetcher.fetchSerp(inGermany);
    const resting = await fetcher.fetchSerp(inGermany);
    const elsewhere = await fetcher.fetchSerp(check);

    expect(viaProxy()).toEqual(['A', 'B']);
    if (blocked.kind !== 'failed' || resting.kind !== 'failed') throw new Error('expected both German checks to fail');
    expect(blocked.cause).toBe('blocked');
    expect(blocked.reason).toMatch(/blocked by Google \(proxy 127\.0\.0\.1:\d+ \(DE\): captcha page\)/);
    expect(resting).toMatchObject({ cause: 'egress_resting', backAt: Date.parse('2025-01-01T00:10:00Z') });
    expect(resting.reason).toMatch(/the one proxy in DE is resting after Google blocked it; it is back at 2025-01-01T00:10:00\.000Z/);
    expect(elsewhere.kind).toBe('success');
  });
});
