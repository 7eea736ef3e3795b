import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { FakeGoogle } from '../fetcher/test-support/fake-google';
import { fakeResultsPage, parseFakeSerp, resultUrls } from '../fetcher/test-support/fake-serp';
import { readSavedSerp } from '../fetcher/test-support/saved-serp';
import { serpFetcherConfig, SerpFetcher, type PageLoader, type SerpFetchOutcome } from '../fetcher';
import { parseSerpPage } from '../parser';
import { FETCH_API_EGRESS, FetchApiPageLoader } from './fetch-api-page-loader';
import { fetchApiSource } from './fetch-api-source';
import { FailoverSerpSource } from './failover-serp-source';
import type { SerpSource } from './serp-source';
import { FakeScrapingApi } from './testing/fake-scraping-api';
import { JITTER_SHARE } from '../fetcher/egress-pacer';

const EGGS_PAGE = readSavedSerp('fra50__persistent_browser_service__ai_overview.html');
const CAPTCHA_PAGE = readSavedSerp('zlurad__serp-parser__desktop-recaptcha.html');
const request = { keyword: 'how to boil eggs', geoCode: 'us', langCode: 'en', depth: 50 } as const;

let google: FakeGoogle;
let api: FakeScrapingApi;
beforeAll(async () => {
  [google, api] = await Promise.all([FakeGoogle.start(), FakeScrapingApi.start()]);
});
afterAll(async () => {
  await Promise.all([google.close(), api.close()]);
});
beforeEach(() => {
  api.requests.length = 0;
  api.reply = () => ({ kind: 'forward' });
  google.reset(() => ({ kind: 'page', html: EGGS_PAGE }));
});

const source = (overrides: Parameters<typeof serpFetcherConfig>[0] = {}) =>
  fetchApiSource({
    template: api.template,
    parse: parseSerpPage,
    config: serpFetcherConfig({
      baseUrl: google.baseUrl,
      // Room for a page under a loaded CI machine: at 2 s a second page once timed out and was asked
      // again (three API requests for two pages). The timeout cases set their own.
      navigationTimeoutMs: 10_000,
      retryBaseDelayMs: 1,
      retryMaxDelayMs: 2,
      maxAttempts: 2,
      ...overrides,
    }),
  });

describe('fetch-api: a raw-HTML scraping API by URL template, read by our parser', () => {
  it('puts the URL-encoded Google search URL in the template and parses the HTML it gets back', async () => {
    const outcome = await source().fetchSerp(request);
    expect(api.requests[0].target).toBe(`${google.baseUrl}/search?q=how+to+boil+eggs&hl=en&gl=us&pws=0`);
    expect(google.searches[0].query.get('q')).toBe('how to boil eggs');
    // The saved page links a next page; the second answer (the same page) adds nothing new, which ends the check.
    expect(outcome).toMatchObject({ kind: 'success', pagesRead: 2 });
    expect(api.requests).toHaveLength(2);
    expect(outcome.kind === 'success' && outcome.organic[4]).toMatchObject({ position: 5, domain: 'simplyrecipes.com' });
    expect(outcome.kind === 'success' && outcome.aiOverview.length).toBeGreaterThan(0);
  });

  it('detects a captcha page the API hands back as a block, and rests the API for the block rest', async () => {
    google.reset(() => ({ kind: 'page', html: CAPTCHA_PAGE }));
    const blocked = await source({ blockRestMs: 60_000 }).fetchSerp(request);
    expect(blocked).toMatchObject({
      kind: 'failed',
      cause: 'blocked',
      egress: 'fetch-api',
      reason: expect.stringMatching(/scraping API: captcha page/),
    });
    expect(blocked.kind === 'failed' && blocked.backAt).toBeGreaterThan(Date.now());
  });

  it("reports the API's own errors (a bad key, a non-page body) and its timeouts as the API's, never Google's", async () => {
    const badKey = await fetchApiSource({
      template: api.template.replace(api.apiKey, 'wrong'),
      parse: parseSerpPage,
      config: serpFetcherConfig({ baseUrl: google.baseUrl, maxAttempts: 1 }),
    }).fetchSerp(request);
    expect(badKey).toMatchObject({
      kind: 'failed',
      cause: 'load_error',
      reason: expect.stringMatching(/http:\/\/127\.0\.0\.1:\d+ answered 401: \{"error":"Invalid API key"\}/),
    });
    expect(JSON.stringify(badKey)).not.toContain('wrong');

    api.reply = () => ({ kind: 'text', status: 200, body: 'OK but not a page' });
    expect(await source().fetchSerp(request)).toMatchObject({ kind: 'failed', cause: 'unrecognised_page' });

    // The late answer never reaches Google: a later test reads Google's log.
    api.reply = () => ({ kind: 'delay', ms: 3_000, then: { kind: 'text', status: 200, body: 'too late' } });
    const started = Date.now();
    expect(await source({ navigationTimeoutMs: 1_000 }).fetchSerp(request)).toMatchObject({
      kind: 'failed',
      cause: 'timeout',
      reason: expect.stringMatching(/after 2 attempts/),
    });
    expect(Date.now() - started).toBeLessThan(2_900);
  });

  it('keeps a key out of the reason when the API quotes it escaped in JSON (\\/, \\u00e9), in the query or in the path', async () => {
    // The verifying audit: only the raw text was cut, so one escaped character let the whole key through.
    const key = 'Abqx/dezw+ghyk é qmzv&<x>';
    const escapedJson = (text: string) =>
      JSON.stringify({ error: `Invalid key: ${text}` })
        .replace(/\//g, '\\/')
        .replace(/[^\x20-\x7e]|[&<>]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
    const echo = createServer((req, res) => {
      const url = new URL(req.url!, 'http://x');
      const quoted = url.searchParams.get('api_key') ?? decodeURIComponent(url.pathname.split('/')[2] ?? '');
      res.writeHead(401, { 'content-type': 'application/json' }).end(escapedJson(quoted));
    });
    await new Promise<void>((resolve) => echo.listen(0, '127.0.0.1', resolve));
    try {
      const origin = `http://127.0.0.1:${(echo.address() as AddressInfo).port}`;
      for (const template of [
        `${origin}/scrape?api_key=${encodeURIComponent(key)}&url={url}`,
        `${origin}/keys/${encodeURIComponent(key)}/scrape?url={url}`,
      ]) {
        const failed = await fetchApiSource({
          template,
          parse: parseSerpPage,
          config: serpFetcherConfig({ baseUrl: google.baseUrl, maxAttempts: 1 }),
        }).fetchSerp(request);
        expect(failed).toMatchObject({ kind: 'failed', cause: 'load_error', reason: expect.stringContaining('Invalid key: [secret]') });
        for (const part of ['Abqx', 'dezw', 'ghyk', 'qmzv']) expect(JSON.stringify(failed)).not.toContain(part);
      }
    } finally {
      await new Promise((resolve) => echo.close(resolve));
    }
  });

  it('is unreachable, not blocked, when nothing listens at the template', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    // Some APIs take their key as a path segment: a reason names the API by its origin alone.
    const loader = new FetchApiPageLoader(`http://127.0.0.1:${port}/token-in-path-333333/?url={url}`, 1_000);
    const loaded = await loader.load({
      url: `${google.baseUrl}/search?q=x`,
      egress: FETCH_API_EGRESS,
      userAgent: 'x',
      locale: 'en-US',
      acceptLanguage: 'en-US,en',
    });
    expect(loaded).toEqual({ kind: 'load-error', detail: `http://127.0.0.1:${port} could not be reached (ECONNREFUSED)` });
  });
});

describe('failover over the sources, in order', () => {
  const fixed = (name: SerpSource['name'], outcome: SerpFetchOutcome): SerpSource & { calls: number } => {
    const source = { name, calls: 0, fetchSerp: async () => (source.calls++, outcome), close: async () => undefined };
    return source;
  };

  it('answers from the first source that succeeds, naming it, and asks no further one', async () => {
    const blocked = fixed('browser', {
      kind: 'failed',
      reason: 'page 1 (start=0): blocked by Google (direct connection: captcha page)',
      pagesRead: 0,
      cause: 'blocked',
      egress: 'direct',
      backAt: 5,
    });
    const api = fixed('fetch-api', { kind: 'success', organic: [], aiOverview: [], pagesRead: 1 });
    const spare = fixed('dataforseo', { kind: 'success', organic: [], aiOverview: [], pagesRead: 1 });
    expect(await new FailoverSerpSource([blocked, api, spare]).fetchSerp(request)).toMatchObject({ kind: 'success', source: 'fetch-api' });
    expect([blocked.calls, api.calls, spare.calls]).toEqual([1, 1, 0]);
  });

  it("fails only when every source failed, listing each one's reason", async () => {
    const outcome = await new FailoverSerpSource([
      fixed('browser', { kind: 'failed', reason: 'blocked by Google', pagesRead: 0, cause: 'blocked', egress: 'direct' }),
      fixed('dataforseo', {
        kind: 'failed',
        reason: 'dataforseo: the task failed (50000: Internal Error.)',
        pagesRead: 0,
        cause: 'http_error',
        egress: 'dataforseo',
      }),
    ]).fetchSerp(request);
    expect(outcome).toMatchObject({
      kind: 'failed',
      cause: 'blocked',
      egress: 'direct',
      reason: 'every source failed (browser: blocked by Google | dataforseo: dataforseo: the task failed (50000: Internal Error.))',
      sourceFailures: [
        { source: 'browser', cause: 'blocked' },
        { source: 'dataforseo', cause: 'http_error' },
      ],
    });
  });
});

describe('pacing: one egress keeps a minimum interval between requests to Google', () => {
  it('spaces the requests of pages and checks on one egress by at least the interval, and by at most the interval plus its jitter', async () => {
    // Three pages of ten for every query, so that one check pages; two checks at once share the egress. The
    // pages are small and cheaply parsed: the fake Google runs in this process, and a long parse would
    // delay the moment it notes a request's arrival.
    google.reset((seen) => ({
      kind: 'page',
      html: fakeResultsPage({
        urls: resultUrls(seen.start + 1, 10).map((url) => `${url}?q=${seen.query.get('q')}`),
        hasNextPage: seen.start < 20,
      }),
    }));
    const minIntervalMs = 300;
    // Straight to the fake Google, so that the log's times are the fetcher's send times plus a steady hop.
    const loader: PageLoader = {
      load: async ({ url }) => {
        const response = await fetch(url);
        return { kind: 'loaded', status: response.status, html: await response.text(), finalUrl: url };
      },
      close: async () => undefined,
    };
    await fetch(`${google.baseUrl}/warm-up`);
    const fetcher = new SerpFetcher(serpFetcherConfig({ baseUrl: google.baseUrl, minIntervalMs }), {
      loader,
      parse: parseFakeSerp,
      userAgents: ['test'],
    });
    await Promise.all([fetcher.fetchSerp({ ...request, keyword: 'eggs one' }), fetcher.fetchSerp({ ...request, keyword: 'eggs two' })]);
    const times = google.searches.map((seen) => seen.at);
    expect(times).toHaveLength(6);
    const gaps = times.slice(1).map((at, i) => at - times[i]);
    // Below: the hop from the fetcher to the fake Google varies by some ms on a busy machine (unpaced,
    // the gaps are a few ms). Above: the jitter, plus that hop.
    for (const gap of gaps) expect(gap).toBeGreaterThanOrEqual(minIntervalMs - 50);
    expect(Math.max(...gaps)).toBeLessThan(minIntervalMs * (1 + JITTER_SHARE) + 150);
  });
});
