import type { BrowserThread } from '../browser/browser-thread';
import {
  createSerpFetcher,
  GOOGLE_CONSENT_SOCS,
  serpFetcherConfig,
  type SerpFetcher,
  type SerpFetcherConfig,
  type SerpFetchOutcome,
} from './';
import { FakeGoogle, statusReply, type FakeReply } from './test-support/fake-google';
import { FAKE_CAPTCHA_PAGE, FAKE_NO_RESULTS_PAGE, FAKE_UNRECOGNISED_PAGE, fakeResultsPage, parseFakeSerp } from './test-support/fake-serp';
import { launchOfflineBrowserThread } from './test-support/offline-chromium';

/** Real Chromium against a local fake Google serving small synthetic pages, read by a fake parser. */

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

function newFetcher(overrides: Partial<SerpFetcherConfig> = {}): SerpFetcher {
  const fetcher = createSerpFetcher({
    browser,
    parse: parseFakeSerp,
    config: serpFetcherConfig({
      baseUrl: google.baseUrl,
      navigationTimeoutMs: 10_000,
      retryBaseDelayMs: 10,
      retryMaxDelayMs: 40,
      subresourceHosts: [],
      ...overrides,
    }),
  });
  fetchers.push(fetcher);
  return fetcher;
}

const check = { keyword: 'running shoes', geoCode: 'us', langCode: 'en', depth: 50 } as const;

/** Distinct URLs for the results of the page at `start`. */
function pageUrls(start: number, count: number): string[] {
  return Array.from({ length: count }, (_, i) => `https://p${start / 10 + 1}-r${i + 1}.example/`);
}

/** A Google with `perPage` results on every page and a next link up to `lastStart`. */
function pagedGoogle(perPage: number, lastStart = 1_000): (request: { start: number }) => FakeReply {
  return ({ start }) => ({
    kind: 'page',
    html: fakeResultsPage({ urls: pageUrls(start, perPage), hasNextPage: start < lastStart }),
  });
}

function expectSuccess(outcome: SerpFetchOutcome): Extract<SerpFetchOutcome, { kind: 'success' }> {
  if (outcome.kind !== 'success') throw new Error(`expected success, got failure: ${outcome.reason}`);
  return outcome;
}

function expectFailure(outcome: SerpFetchOutcome): Extract<SerpFetchOutcome, { kind: 'failed' }> {
  if (outcome.kind !== 'failed') throw new Error(`expected a failure, got ${outcome.organic.length} results`);
  return outcome;
}

describe('paging', () => {
  it('reads start=0,10,…,40 for depth 50 and numbers the results 1..50 across pages', async () => {
    google.reset(pagedGoogle(10));

    const outcome = expectSuccess(await newFetcher().fetchSerp(check));

    expect(google.starts).toEqual([0, 10, 20, 30, 40]);
    expect(outcome.pagesRead).toBe(5);
    expect(outcome.organic.map((result) => result.position)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    expect(outcome.organic[0].url).toBe('https://p1-r1.example/');
    expect(outcome.organic[10]).toMatchObject({ position: 11, url: 'https://p2-r1.example/', domain: 'p2-r1.example' });
    expect(outcome.organic[49].url).toBe('https://p5-r10.example/');
  });

  it('cuts at the depth: 50 keeps 50, 100 reads on and keeps 100, never what lies past it', async () => {
    google.reset(pagedGoogle(12));
    const top50 = expectSuccess(await newFetcher().fetchSerp({ ...check, depth: 50 }));
    expect(google.starts).toEqual([0, 10, 20, 30, 40]);
    expect(top50.organic).toHaveLength(50);
    expect(top50.organic[49]).toMatchObject({ position: 50, url: 'https://p5-r2.example/' });

    google.reset(pagedGoogle(12));
    const top100 = expectSuccess(await newFetcher().fetchSerp({ ...check, depth: 100 }));
    expect(google.starts).toEqual([0, 10, 20, 30, 40, 50, 60, 70, 80]);
    expect(top100.organic).toHaveLength(100);
    expect(top100.organic[99]).toMatchObject({ position: 100, url: 'https://p9-r4.example/' });
  });

  it('reads on past depth/10 pages while Google offers more: pages of 7 reach position 50 on the eighth', async () => {
    // Before: at most depth/10 + 2 = 7 pages, 49 results, and a site at 50 stored as "not ranking".
    google.reset(pagedGoogle(7));
    const outcome = expectSuccess(await newFetcher().fetchSerp(check));
    expect(google.starts).toEqual([0, 10, 20, 30, 40, 50, 60, 70]);
    expect(outcome.organic).toHaveLength(50);
    expect(outcome.organic[49]).toMatchObject({ position: 50, url: 'https://p8-r1.example/' });
  });

  it('fails a check whose pages run too short to reach the depth, never passing the list off as complete', async () => {
    google.reset(pagedGoogle(2));
    const outcome = expectFailure(await newFetcher().fetchSerp(check));
    expect(google.starts).toHaveLength(13);
    expect(outcome).toMatchObject({
      cause: 'short_pages',
      pagesRead: 13,
      reason: 'Google offered a next page after 13 pages holding 26 of the 50 results: its pages run too short to read them all',
    });
  });

  it('stops at a page without a next link and succeeds with what Google has', async () => {
    google.reset(pagedGoogle(10, 20));

    const outcome = expectSuccess(await newFetcher().fetchSerp({ ...check, depth: 100 }));

    expect(google.starts).toEqual([0, 10, 20]);
    expect(outcome.organic).toHaveLength(30);
    expect(outcome.pagesRead).toBe(3);
  });

  it('drops a URL already seen on an earlier page and keeps the numbering contiguous', async () => {
    google.reset(({ start }) => {
      const urls = start === 0 ? pageUrls(0, 10) : ['https://p1-r3.example/', ...pageUrls(10, 9)];
      return { kind: 'page', html: fakeResultsPage({ urls, hasNextPage: start === 0 }) };
    });

    const outcome = expectSuccess(await newFetcher().fetchSerp(check));

    expect(outcome.organic).toHaveLength(19);
    expect(outcome.organic.filter((result) => result.url === 'https://p1-r3.example/')).toHaveLength(1);
    expect(outcome.organic[10]).toMatchObject({ position: 11, url: 'https://p2-r1.example/' });
    expect(outcome.organic[18].position).toBe(19);
  });

  it('takes the AI Overview sources from the first page only', async () => {
    google.reset(({ start }) => ({
      kind: 'page',
      html: fakeResultsPage({
        urls: pageUrls(start, 10),
        hasNextPage: start === 0,
        aiOverviewUrls: [`https://cited-on-page-${start / 10 + 1}.example/`],
      }),
    }));

    const outcome = expectSuccess(await newFetcher().fetchSerp(check));

    expect(outcome.aiOverview.map((source) => source.url)).toEqual(['https://cited-on-page-1.example/']);
  });

  it('a "no results" first page is a success with no results', async () => {
    google.reset(() => ({ kind: 'page', html: FAKE_NO_RESULTS_PAGE }));

    const outcome = expectSuccess(await newFetcher().fetchSerp(check));

    expect(outcome).toEqual({ kind: 'success', organic: [], aiOverview: [], pagesRead: 1 });
    expect(google.searches).toHaveLength(1);
  });
});

describe('the request', () => {
  it('carries the keyword (spaces, non-ASCII, &) URL-encoded with hl and gl, and a browser language and user agent', async () => {
    google.reset(() => ({ kind: 'page', html: fakeResultsPage({ urls: pageUrls(0, 3), hasNextPage: false }) }));

    await newFetcher().fetchSerp({ keyword: 'café crème & pain', geoCode: 'FR', langCode: 'fr', depth: 50 });

    const [request] = google.searches;
    expect(request.query.get('q')).toBe('café crème & pain');
    expect(request.query.get('hl')).toBe('fr');
    expect(request.query.get('gl')).toBe('fr');
    // The first page is requested as a person would: without `start`.
    expect(request.query.has('start')).toBe(false);
    expect(request.headers['accept-language']).toMatch(/^fr-FR,fr/);
    expect(request.headers['user-agent']).toMatch(/Chrome\/\d+/);
    expect(request.headers['user-agent']).not.toMatch(/Headless/);
  });

  it("shows the page the searched country's clock: its one zone, or where most of its people live", async () => {
    // The page writes the zone its scripts see into the first result's title, where the parser reads it.
    const clock = `<script>document.querySelector('#organic a').textContent = Intl.DateTimeFormat().resolvedOptions().timeZone;</script>`;
    google.reset(() => ({
      kind: 'page',
      html: fakeResultsPage({ urls: pageUrls(0, 1), hasNextPage: false }).replace('</body>', `${clock}</body>`),
    }));
    const fetcher = newFetcher();

    const austria = expectSuccess(await fetcher.fetchSerp({ ...check, geoCode: 'at', langCode: 'de' }));
    const unitedStates = expectSuccess(await fetcher.fetchSerp({ ...check, geoCode: 'US' }));

    expect(austria.organic[0].title).toBe('Europe/Vienna');
    expect(unitedStates.organic[0].title).toBe('America/New_York');
  });

  it("carries Google's consent cookie for the host of GOOGLE_BASE_URL, from the first request of a new context on", async () => {
    google.reset(pagedGoogle(10, 10));

    expectSuccess(await newFetcher().fetchSerp(check));

    expect(google.searches).toHaveLength(2);
    for (const request of google.searches) expect(request.headers.cookie).toBe(`SOCS=${GOOGLE_CONSENT_SOCS}`);
  });
});

describe('retries', () => {
  it('retries a 500 and succeeds when Google recovers', async () => {
    let failuresLeft = 2;
    google.reset((request) => (failuresLeft-- > 0 ? statusReply(500) : pagedGoogle(10, 0)(request)));

    const outcome = expectSuccess(await newFetcher({ maxAttempts: 3 }).fetchSerp(check));

    expect(google.starts).toEqual([0, 0, 0]);
    expect(outcome.organic).toHaveLength(10);
  });

  it('gives up after maxAttempts on a lasting 500 and says why', async () => {
    google.reset(() => statusReply(503));

    const outcome = expectFailure(await newFetcher({ maxAttempts: 3 }).fetchSerp(check));

    expect(google.searches).toHaveLength(3);
    expect(outcome.reason).toMatch(/page 1 \(start=0\).*HTTP 503.*after 3 attempts/);
    expect(outcome.pagesRead).toBe(0);
  });

  it('retries a dropped connection', async () => {
    let dropped = false;
    google.reset((request) => {
      if (dropped) return pagedGoogle(10, 0)(request);
      dropped = true;
      return { kind: 'reset' };
    });

    expectSuccess(await newFetcher().fetchSerp(check));

    expect(google.searches).toHaveLength(2);
  });

  it('retries a timeout, and fails with a readable reason when Google stays silent', async () => {
    google.reset(() => ({ kind: 'delay', ms: 60_000, then: statusReply(200) }));

    const outcome = expectFailure(await newFetcher({ navigationTimeoutMs: 1_000, maxAttempts: 2 }).fetchSerp(check));

    expect(google.searches).toHaveLength(2);
    expect(outcome.reason).toMatch(/timed out.*after 2 attempts/);
  });

  it('succeeds when only the first attempt is too slow', async () => {
    let slow = true;
    google.reset((request) => {
      const page = pagedGoogle(10, 0)(request);
      if (!slow) return page;
      slow = false;
      return { kind: 'delay', ms: 60_000, then: page };
    });

    const outcome = expectSuccess(await newFetcher({ navigationTimeoutMs: 1_000, maxAttempts: 2 }).fetchSerp(check));

    expect(outcome.organic).toHaveLength(10);
    expect(google.searches).toHaveLength(2);
  });
});

describe('failures that must not be retried', () => {
  it('a captcha fails the check with one request, and the blocked connection rests: the next check sends none', async () => {
    google.reset(() => ({ kind: 'page', html: FAKE_CAPTCHA_PAGE }));
    const fetcher = newFetcher({ maxAttempts: 3, blockRestMs: 60 * 60_000 });

    const first = expectFailure(await fetcher.fetchSerp(check));
    const second = expectFailure(await fetcher.fetchSerp(check));

    expect(google.searches).toHaveLength(1);
    expect(first.reason).toMatch(/blocked by Google \(direct connection: captcha page\)/);
    expect(second.reason).toMatch(/direct connection is resting/);
  });

  it('a check waiting its turn on an egress that is blocked meanwhile sends nothing', async () => {
    google.reset(() => ({ kind: 'page', html: FAKE_CAPTCHA_PAGE }));
    const fetcher = newFetcher({ maxAttempts: 3, blockRestMs: 60 * 60_000, minIntervalMs: 1_000 });

    const [first, second] = await Promise.all([fetcher.fetchSerp(check), fetcher.fetchSerp({ ...check, keyword: 'trail shoes' })]);

    // Before, the second check's request went out after its wait and pushed the rest back.
    expect(google.searches).toHaveLength(1);
    expect(expectFailure(first).reason).toMatch(/blocked by Google/);
    expect(expectFailure(second).reason).toMatch(/direct connection is resting/);
  });

  it('HTTP 429 is a block, not a server error to retry', async () => {
    google.reset(() => ({ kind: 'page', status: 429, html: FAKE_CAPTCHA_PAGE }));

    const outcome = expectFailure(await newFetcher({ maxAttempts: 3 }).fetchSerp(check));

    expect(google.searches).toHaveLength(1);
    expect(outcome.reason).toMatch(/blocked by Google .*HTTP 429/);
  });

  it('a page the parser does not recognise fails the check without a retry', async () => {
    google.reset(() => ({ kind: 'page', html: FAKE_UNRECOGNISED_PAGE }));

    const outcome = expectFailure(await newFetcher({ maxAttempts: 3 }).fetchSerp(check));

    expect(google.searches).toHaveLength(1);
    expect(outcome.reason).toBe('page 1 (start=0): not a result page we can read (no #organic list)');
  });

  it('an HTTP 404 fails the check without a retry', async () => {
    google.reset(() => statusReply(404));

    const outcome = expectFailure(await newFetcher({ maxAttempts: 3 }).fetchSerp(check));

    expect(google.searches).toHaveLength(1);
    expect(outcome.reason).toMatch(/HTTP 404/);
  });

  it('a block on a later page fails the whole check rather than passing the first pages off as complete', async () => {
    google.reset((request) => (request.start < 20 ? pagedGoogle(10)(request) : { kind: 'page', html: FAKE_CAPTCHA_PAGE }));

    const outcome = expectFailure(await newFetcher().fetchSerp(check));

    expect(google.starts).toEqual([0, 10, 20]);
    expect(outcome.pagesRead).toBe(2);
    expect(outcome.reason).toMatch(/^page 3 \(start=20\): blocked by Google/);
  });
});

describe('concurrency', () => {
  it('never has more pages in flight than maxConcurrentPages', async () => {
    let inFlight = 0;
    let mostInFlight = 0;
    const held: Array<() => void> = [];
    // Each request is held until a second one arrives (or 3 s pass), so a limit of 2 is reached for
    // sure and a broken limit shows up as more than 2 at once.
    google.reset(async (request) => {
      inFlight++;
      mostInFlight = Math.max(mostInFlight, inFlight);
      if (inFlight >= 2) held.splice(0).forEach((release) => release());
      else {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, 3_000);
          held.push(() => {
            clearTimeout(timer);
            resolve();
          });
        });
      }
      inFlight--;
      return pagedGoogle(10, 0)(request);
    });
    const fetcher = newFetcher({ maxConcurrentPages: 2 });

    const outcomes = await Promise.all(Array.from({ length: 6 }, (_, i) => fetcher.fetchSerp({ ...check, keyword: `keyword ${i}` })));

    expect(outcomes.map((outcome) => outcome.kind)).toEqual(Array(6).fill('success'));
    expect(google.searches).toHaveLength(6);
    expect(mostInFlight).toBe(2);
  });
});
