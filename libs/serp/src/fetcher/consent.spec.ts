import type { BrowserThread } from '../browser/browser-thread';
import { parseSerpPage } from '../parser/parse-serp-page';
import { createSerpFetcher, GOOGLE_CONSENT_SOCS, serpFetcherConfig, type SerpFetcher, type SerpFetchOutcome } from './';
import { FakeGoogle, type FakeGoogleHandler, type FakeReply, type SeenRequest } from './test-support/fake-google';
import { launchOfflineBrowserThread } from './test-support/offline-chromium';
import { readSavedSerp } from './test-support/saved-serp';

/**
 * Google's EU cookie-consent interstitial, through real Chromium and the real parser: the consent
 * cookie avoids it, and when Google shows it anyway the check fails at once with that reason. The
 * browser resolves consent.google.com to 127.0.0.1, so Google's redirect there (with the fake
 * Google's port) reaches the fake Google.
 */

const CONSENT_PAGE = readSavedSerp('handmade__google-consent.html');
const RESULTS_PAGE = readSavedSerp('zlurad__serp-parser__desktop-google.html');

let browser: BrowserThread;
let google: FakeGoogle;
const fetchers: SerpFetcher[] = [];

beforeAll(async () => {
  [browser, google] = await Promise.all([launchOfflineBrowserThread({ localHosts: ['consent.google.com'] }), FakeGoogle.start()]);
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
    config: serpFetcherConfig({
      baseUrl: google.baseUrl,
      navigationTimeoutMs: 10_000,
      maxAttempts: 3,
      retryBaseDelayMs: 10,
      retryMaxDelayMs: 40,
      blockRestMs: 60 * 60_000,
      subresourceHosts: [],
    }),
  });
  fetchers.push(fetcher);
  return fetcher;
}

const check = { keyword: 'running shoes', geoCode: 'de', langCode: 'en', depth: 50 } as const;

function hasConsentCookie(request: SeenRequest): boolean {
  return (request.headers.cookie ?? '').split(/;\s*/).includes(`SOCS=${GOOGLE_CONSENT_SOCS}`);
}

/** Google's answer from an EU address to a search without a consent choice: off to consent.google.com/ml. */
function consentRedirect(request: SeenRequest): FakeReply {
  const searchUrl = `${google.baseUrl}/search?${request.query.toString()}`;
  const consentUrl = `http://consent.google.com:${google.port}/ml?continue=${encodeURIComponent(searchUrl)}&gl=DE&m=0&pc=srp&hl=en&src=1`;
  return { kind: 'page', status: 302, headers: { location: consentUrl }, html: '' };
}

/** Google from an EU address: results with a consent choice, the consent page without. */
const euGoogle: FakeGoogleHandler = (request) =>
  hasConsentCookie(request) ? { kind: 'page', html: RESULTS_PAGE } : consentRedirect(request);

function expectFailure(outcome: SerpFetchOutcome): Extract<SerpFetchOutcome, { kind: 'failed' }> {
  if (outcome.kind !== 'failed') throw new Error(`expected a failure, got ${outcome.organic.length} results`);
  return outcome;
}

it('avoided: Google sees the consent cookie on the first search and serves results, not its consent page', async () => {
  google.reset(euGoogle);
  google.servePath('/ml', { kind: 'page', html: CONSENT_PAGE });

  const outcome = await newFetcher().fetchSerp(check);

  expect(outcome).toMatchObject({ kind: 'success', organic: expect.arrayContaining([expect.objectContaining({ position: 1 })]) });
  expect(google.searches.length).toBeGreaterThan(0);
  expect(google.searches.every(hasConsentCookie)).toBe(true);
  expect(google.otherRequests).not.toContain('/ml');
});

it('recognised by the URL: a redirect to consent.google.com/ml fails the check with that reason after one request', async () => {
  // Google does not take the cookie: every search is sent to the consent page.
  google.reset(consentRedirect);
  google.servePath('/ml', { kind: 'page', html: CONSENT_PAGE });

  const outcome = expectFailure(await newFetcher().fetchSerp(check));

  expect(outcome).toEqual({
    kind: 'failed',
    reason: 'page 1 (start=0): Google showed its cookie-consent page instead of results (the browser was sent to consent.google.com/ml)',
    pagesRead: 0,
    cause: 'consent',
    egress: 'direct',
  });
  expect(google.searches).toHaveLength(1);
  expect(google.otherRequests).toEqual(['/ml']);
});

it('recognised in the page: a consent form posting to consent.google.com/save instead of results fails the check the same way', async () => {
  google.reset(() => ({ kind: 'page', html: CONSENT_PAGE }));

  const outcome = expectFailure(await newFetcher().fetchSerp(check));

  expect(outcome.reason).toBe(
    'page 1 (start=0): Google showed its cookie-consent page instead of results (a form posting to consent.google.com/save)',
  );
  expect(google.searches).toHaveLength(1);
});

it('not a block: no retry and no rest, so the next check asks Google again (once) and succeeds when Google serves results', async () => {
  let consent = true;
  google.reset(() => ({ kind: 'page', html: consent ? CONSENT_PAGE : RESULTS_PAGE }));
  const fetcher = newFetcher();

  const first = expectFailure(await fetcher.fetchSerp(check));
  const second = expectFailure(await fetcher.fetchSerp(check));
  expect(first.reason).toMatch(/cookie-consent page/);
  expect(second.reason).toMatch(/cookie-consent page/);
  expect(google.searches).toHaveLength(2);

  consent = false;
  expect((await fetcher.fetchSerp(check)).kind).toBe('success');
});
