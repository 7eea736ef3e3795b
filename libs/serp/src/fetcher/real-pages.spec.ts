import type { BrowserThread } from '../browser/browser-thread';
import { parseSerpPage } from '../parser/parse-serp-page';
import { createSerpFetcher, serpFetcherConfig, type SerpFetcher, type SerpFetchOutcome } from './';
import { FakeGoogle } from './test-support/fake-google';
import { launchOfflineBrowserThread } from './test-support/offline-chromium';
import { readSavedSerp } from './test-support/saved-serp';

/**
 * The real parser over real saved Google pages, replayed through Chromium: what the browser renders
 * (scripts of the saved pages run) must read as the saved file does.
 */

const DESKTOP_GOOGLE = 'zlurad__serp-parser__desktop-google.html';
const FEATURED_SNIPPET = 'zlurad__serp-parser__desktop-featured-snippet.html';
const NO_RESULTS = 'karust__openserp__search_no_results.html';
const AI_OVERVIEW = 'fra50__persistent_browser_service__ai_overview.html';
const CAPTCHA = 'fra50__persistent_browser_service__google_serp-captcha.html';
const JAVASCRIPT_CHALLENGE = 'aileadbooker__ai-lead-booker__debug_google-enablejs.html';

let browser: BrowserThread;
let google: FakeGoogle;
const fetchers: SerpFetcher[] = [];

beforeAll(async () => {
  [browser, google] = await Promise.all([launchOfflineBrowserThread(), FakeGoogle.start()]);
});

afterEach(async () => {
  await Promise.all(fetchers.splice(0).map((fetcher) => fetcher.close()));
});

afterAll(async () => {
  await google?.close();
  if (browser) await browser.close();
});

function newFetcher(): SerpFetcher {
  const fetcher = createSerpFetcher({
    browser,
    parse: parseSerpPage,
    config: serpFetcherConfig({ baseUrl: google.baseUrl, navigationTimeoutMs: 15_000, retryBaseDelayMs: 10, subresourceHosts: [] }),
  });
  fetchers.push(fetcher);
  return fetcher;
}

/** Serves saved pages by `start`; a `start` not in the map gets the "no results" page. */
function serveSavedPages(byStart: Record<number, string>): void {
  const html = Object.fromEntries(Object.entries(byStart).map(([start, file]) => [start, readSavedSerp(file)]));
  const noResults = readSavedSerp(NO_RESULTS);
  google.reset(({ start }) => ({ kind: 'page', html: html[start] ?? noResults }));
}

function organicUrlsOf(file: string): string[] {
  const page = parseSerpPage(readSavedSerp(file));
  if (page.kind !== 'results') throw new Error(`${file} is not a result page`);
  return page.organic.map((result) => result.url);
}

function expectSuccess(outcome: SerpFetchOutcome): Extract<SerpFetchOutcome, { kind: 'success' }> {
  if (outcome.kind !== 'success') throw new Error(`expected success, got failure: ${outcome.reason}`);
  return outcome;
}

const check = { keyword: 'google', geoCode: 'us', langCode: 'en', depth: 50 } as const;

it('merges real result pages until Google has no more, as the saved files read', async () => {
  serveSavedPages({ 0: DESKTOP_GOOGLE, 10: FEATURED_SNIPPET });
  const expectedUrls = [...new Set([...organicUrlsOf(DESKTOP_GOOGLE), ...organicUrlsOf(FEATURED_SNIPPET)])];

  const outcome = expectSuccess(await newFetcher().fetchSerp(check));

  expect(google.starts).toEqual([0, 10, 20]);
  expect(outcome.pagesRead).toBe(3);
  expect(outcome.organic.map((result) => result.url)).toEqual(expectedUrls);
  expect(outcome.organic.map((result) => result.position)).toEqual(expectedUrls.map((_, i) => i + 1));
  // What the page's source repository expects of its second result.
  expect(outcome.organic[1].url).toBe('https://www.google.com/');
});

it('reads the AI Overview sources of a rendered 2025 page', async () => {
  serveSavedPages({ 0: AI_OVERVIEW });

  const outcome = expectSuccess(await newFetcher().fetchSerp(check));

  expect(outcome.organic).toHaveLength(organicUrlsOf(AI_OVERVIEW).length);
  expect(outcome.aiOverview).toHaveLength(7);
  expect(new Set(outcome.aiOverview.map((source) => source.url)).size).toBe(7);
});

it('a real "no results" page is a success with no results', async () => {
  serveSavedPages({});

  expect(await newFetcher().fetchSerp(check)).toEqual({ kind: 'success', organic: [], aiOverview: [], pagesRead: 1 });
});

it('a real captcha page fails the check after one request', async () => {
  serveSavedPages({ 0: CAPTCHA });

  const outcome = await newFetcher().fetchSerp(check);

  expect(outcome).toMatchObject({ kind: 'failed', pagesRead: 0 });
  expect(outcome.kind === 'failed' && outcome.reason).toMatch(/blocked by Google \(direct connection: captcha page\)/);
  expect(google.searches).toHaveLength(1);
});

it("Google's JavaScript challenge, which reloads itself, costs a bounded number of requests and fails as a block", async () => {
  serveSavedPages({ 0: JAVASCRIPT_CHALLENGE });

  const outcome = await newFetcher().fetchSerp(check);

  expect(outcome.kind === 'failed' && outcome.reason).toMatch(/blocked by Google \(direct connection: javascript-challenge page\)/);
  // The first load plus at most three script reloads, and no retry after the block.
  expect(google.searches.length).toBeGreaterThanOrEqual(1);
  expect(google.searches.length).toBeLessThanOrEqual(4);
});
