import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { COUNTRY_CODES } from '@rank/domain/iso-codes';
import { closeChromium } from '../browser/chromium-launch';
import type { Egress } from './egress-pool';
import { ChromiumPageLoader, type ChromiumPageLoaderOptions } from './chromium-page-loader';
import type { PageLoadRequest, PageLoadResult } from './page-loader';
import { FakeGoogle, statusReply, type FakeGoogleHandler, type SeenRequest } from './test-support/fake-google';
import { launchOfflineChromium } from './test-support/offline-chromium';
import { browserTimeZone } from './time-zone';

let browser: Browser;
let google: FakeGoogle;
const loaders: ChromiumPageLoader[] = [];

beforeAll(async () => {
  [browser, google] = await Promise.all([launchOfflineChromium(), FakeGoogle.start()]);
});

afterEach(async () => {
  await Promise.all(loaders.splice(0).map((loader) => loader.close()));
});

afterAll(async () => {
  await google?.close();
  if (browser) await closeChromium(browser);
});

function newLoader(options: Partial<ChromiumPageLoaderOptions> = {}, onBrowser: Browser = browser): ChromiumPageLoader {
  const loader = new ChromiumPageLoader(onBrowser, {
    navigationTimeoutMs: 10_000,
    maxConcurrentPages: 2,
    maxContexts: 4,
    subresourceHosts: [],
    ...options,
  });
  loaders.push(loader);
  return loader;
}

const direct: Egress = { id: 'direct', label: 'direct connection' };

function request(overrides: Partial<PageLoadRequest> = {}): PageLoadRequest {
  return {
    url: `${google.baseUrl}/search?q=test`,
    egress: direct,
    userAgent: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/150.0.0.0 Safari/537.36',
    locale: 'en-US',
    acceptLanguage: 'en-US,en',
    ...overrides,
  };
}

function expectLoaded(result: PageLoadResult): Extract<PageLoadResult, { kind: 'loaded' }> {
  if (result.kind !== 'loaded') throw new Error(`expected a loaded page, got ${result.kind}: ${result.detail}`);
  return result;
}

it('returns the DOM as rendered, with the user agent and language of the request', async () => {
  google.reset(() => ({
    kind: 'page',
    html: `<!doctype html><html><body><p id="who"></p><script>
      const p = document.getElementById('who');
      p.dataset.ua = navigator.userAgent;
      p.dataset.lang = navigator.language;
      p.dataset.platform = navigator.platform;
      p.dataset.intl = Intl.DateTimeFormat().resolvedOptions().locale;
      p.dataset.zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
      p.dataset.offset = String(new Date('2026-07-01T12:00:00Z').getTimezoneOffset());
    </script></body></html>`,
  }));
  const userAgent = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/150.0.0.0 Safari/537.36';

  const loaded = expectLoaded(
    await newLoader().load(request({ userAgent, locale: 'de-AT', acceptLanguage: 'de-AT,de', timeZone: 'Europe/Vienna' })),
  );

  expect(loaded.status).toBe(200);
  expect(loaded.html).toMatch(/^<!DOCTYPE html>/);
  expect(loaded.html).toContain(`data-ua="${userAgent}"`);
  expect(loaded.html).toContain('data-lang="de-AT"');
  expect(loaded.html).toContain('data-platform="Win32"');
  expect(loaded.html).toContain('data-intl="de-AT"');
  expect(loaded.html).toContain('data-zone="Europe/Vienna"');
  expect(loaded.html).toContain('data-offset="-120"'); // summer time in Vienna: UTC+2
  expect(google.searches[0].headers['user-agent']).toBe(userAgent);
  expect(google.searches[0].headers['accept-language']).toBe('de-AT,de;q=0.9');
});

describe('time zone', () => {
  const clockPage = () =>
    google.reset(() => ({
      kind: 'page',
      html: `<!doctype html><html><body><p id="clock"></p><script>
        document.getElementById('clock').dataset.zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
      </script></body></html>`,
    }));
  const machineZone = Intl.DateTimeFormat().resolvedOptions().timeZone;

  it("keeps the machine's zone when the request names none, and when Chromium does not know the one named", async () => {
    clockPage();
    const loader = newLoader();

    const unnamed = expectLoaded(await loader.load(request()));
    const unknown = expectLoaded(await loader.load(request({ timeZone: 'Mars/Olympus_Mons' })));

    expect(unnamed.html).toContain(`data-zone="${machineZone}"`);
    expect(unknown.html).toContain(`data-zone="${machineZone}"`);
  });

  it('is set per page: two loads at once on one context show each their own zone', async () => {
    clockPage();
    const loader = newLoader();

    const [tokyo, lima] = await Promise.all([
      loader.load(request({ timeZone: 'Asia/Tokyo' })),
      loader.load(request({ timeZone: 'America/Lima' })),
    ]);

    expect(expectLoaded(tokyo).html).toContain('data-zone="Asia/Tokyo"');
    expect(expectLoaded(lima).html).toContain('data-zone="America/Lima"');
  });

  it("is taken by this Chromium for every country's zone", async () => {
    const zones = [...new Set([...COUNTRY_CODES].map(browserTimeZone).filter((zone): zone is string => zone !== undefined))];
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      const session = await context.newCDPSession(page);
      const refused: string[] = [];
      for (const zone of zones) {
        await session.send('Emulation.setTimezoneOverride', { timezoneId: zone }).catch(() => refused.push(zone));
      }
      expect(zones.length).toBeGreaterThan(200);
      expect(refused).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

it('passes the HTTP status through', async () => {
  google.reset(() => statusReply(404));

  const loaded = expectLoaded(await newLoader().load(request()));

  expect(loaded.status).toBe(404);
  expect(loaded.html).toContain('<h1>404</h1>');
});

describe('what the page may fetch', () => {
  const pageWithSubresources = () => ({
    kind: 'page' as const,
    html: `<!doctype html><html><head>
      <link rel="stylesheet" href="/style.css">
      <style>@font-face { font-family: Test; src: url(/font.woff2); } body { font-family: Test; }</style>
    </head><body>
      <p>text in the test font</p>
      <img src="/picture.png">
      <video src="/clip.mp4" autoplay muted></video>
      <script src="http://localhost:${google.port}/third-party.js"></script>
    </body></html>`,
  });

  it('never fetches images, fonts, media, or hosts that are not allowed, but does fetch styles', async () => {
    google.reset(pageWithSubresources);

    expectLoaded(await newLoader().load(request()));

    expect(google.otherRequests).toContain('/style.css');
    expect(google.otherRequests).not.toContain('/picture.png');
    expect(google.otherRequests).not.toContain('/font.woff2');
    expect(google.otherRequests).not.toContain('/clip.mp4');
    expect(google.otherRequests).not.toContain('/third-party.js');
  });

  it('fetches all of them once allowed (the control for the test above)', async () => {
    google.reset(pageWithSubresources);

    expectLoaded(await newLoader({ subresourceHosts: ['localhost'], blockedResourceTypes: [] }).load(request()));

    expect(google.otherRequests).toEqual(
      expect.arrayContaining(['/style.css', '/picture.png', '/font.woff2', '/clip.mp4', '/third-party.js']),
    );
  });
});

it('follows a page that reloads itself only a bounded number of times', async () => {
  // What Google's JavaScript challenge looks like when it is not satisfied: the page reloads itself.
  google.reset((seen) => ({
    kind: 'page',
    html: `<!doctype html><html><body><p id="round">${seen.query.get('round') ?? '0'}</p>
      <script>location.replace('/search?q=test&round=${Number(seen.query.get('round') ?? '0') + 1}')</script></body></html>`,
  }));

  const loaded = expectLoaded(await newLoader({ maxDocumentsPerLoad: 4 }).load(request()));

  expect(google.searches).toHaveLength(4);
  expect(loaded.html).toContain('<p id="round">3</p>');
});

describe('a script navigation that is still under way when the old page has settled', () => {
  // The next page answers late, so the old page looks settled while its script navigation is in
  // flight: complete once its load handler has navigated, or cut short by a navigation started while
  // it was parsed (Chromium then makes it complete with neither DOMContentLoaded nor load). A slow
  // script keeps the old page loading long enough for the loader to be reading it already when the
  // navigation starts (Chromium holds DevTools calls made once a navigation is under way, so a later
  // read would only see the next page).
  const NEXT_PAGE_DELAY_MS = 700;
  const slowScript = '<script src="/slow.js"></script>';
  const roundPage = (round: number, body: string) => ({
    kind: 'page' as const,
    html: `<!doctype html><html><body><p id="round">${round}</p>${body}</body></html>`,
  });
  const lateNextRound = (body: (next: string) => string) => (seen: SeenRequest) => {
    const round = Number(seen.query.get('round') ?? '0');
    const page = roundPage(round, body(`/search?q=test&round=${round + 1}`));
    return round === 0 ? page : { kind: 'delay' as const, ms: NEXT_PAGE_DELAY_MS, then: page };
  };
  const inlineNavigation = (next: string) => `${slowScript}<script>location.replace('${next}')</script>`;
  const navigationOnLoad = (next: string) => `<script>addEventListener('load', () => location.replace('${next}'))</script>${slowScript}`;

  const serve = (handler: FakeGoogleHandler) => {
    google.reset(handler);
    google.servePath('/slow.js', {
      kind: 'delay',
      ms: 500,
      then: { kind: 'page', html: '', headers: { 'content-type': 'text/javascript' } },
    });
  };

  it.each([
    ['navigates in an inline script, past a short grace period', inlineNavigation, 100],
    ['navigates from its load handler', navigationOnLoad, undefined],
  ])('returns the next page when the old page %s', async (_, body, loadGraceMs) => {
    serve(lateNextRound(body));

    const loaded = expectLoaded(await newLoader({ maxDocumentsPerLoad: 2, loadGraceMs }).load(request()));

    expect(loaded.html).toContain('<p id="round">1</p>');
    expect(loaded.finalUrl).toContain('round=1');
    expect(google.searches).toHaveLength(2);
  });

  it('follows the navigation through an HTTP redirect to the late page', async () => {
    serve((seen) => {
      if (seen.query.has('hop')) return { kind: 'page', status: 302, headers: { location: '/search?q=test&round=1' }, html: '' };
      return lateNextRound(() => `${slowScript}<script>location.replace('/search?q=test&hop=1')</script>`)(seen);
    });

    const loaded = expectLoaded(await newLoader({ maxDocumentsPerLoad: 2, loadGraceMs: 100 }).load(request()));

    expect(loaded.html).toContain('<p id="round">1</p>');
    expect(loaded.status).toBe(200);
    expect(google.searches.map((seen) => seen.query.toString())).toEqual(['q=test', 'q=test&hop=1', 'q=test&round=1']);
  });

  it('stays on the late page, without waiting for the timeout, once it may not navigate further', async () => {
    serve(lateNextRound(inlineNavigation));
    const startedAt = Date.now();

    const loaded = expectLoaded(await newLoader({ maxDocumentsPerLoad: 2, loadGraceMs: 100 }).load(request()));

    expect(loaded.html).toContain('<p id="round">1</p>');
    expect(google.searches).toHaveLength(2);
    expect(Date.now() - startedAt).toBeLessThan(8_000); // the navigation timeout is 10 s
  });

  it('stays on a page whose script navigation brings no document (204), without waiting for the timeout', async () => {
    serve((seen) => (seen.query.has('round') ? statusReply(204) : roundPage(0, navigationOnLoad('/search?round=1'))));
    const startedAt = Date.now();

    const loaded = expectLoaded(await newLoader().load(request()));

    expect(loaded.html).toContain('<p id="round">0</p>');
    expect(google.searches).toHaveLength(2); // the loader saw the navigation end, rather than leaving before it
    expect(Date.now() - startedAt).toBeLessThan(8_000);
  });

  it('stays on a page whose navigation never reaches the network (the page intercepts it), without waiting for the timeout', async () => {
    // Intercepted, the navigation only changes the URL: no request, no new document.
    const intercepting = `<script>navigation.addEventListener('navigate', (event) => event.intercept())</script>`;
    serve(() => roundPage(0, `${intercepting}<script>location.replace('/search?q=test&round=1')</script>`));
    const startedAt = Date.now();

    const loaded = expectLoaded(await newLoader().load(request()));

    expect(loaded.html).toContain('<p id="round">0</p>');
    expect(loaded.finalUrl).toContain('round=1');
    expect(google.searches).toHaveLength(1);
    expect(Date.now() - startedAt).toBeLessThan(8_000);
  });
});

it('keeps one context per egress, reused between loads, and closes the stalest idle one beyond the limit', async () => {
  // Each egress gets a cookie on its first visit; the cookie coming back shows the same context.
  google.reset((seen) => {
    const who = seen.query.get('who') ?? '';
    const returning = (seen.headers.cookie ?? '').includes(`seen_${who}=1`);
    return {
      kind: 'page',
      html: `<html><body><p id="visit">${returning ? 'returning' : 'first'}</p></body></html>`,
      headers: { 'set-cookie': `seen_${who}=1; Path=/` },
    };
  });
  const loader = newLoader({ maxContexts: 2, maxConcurrentPages: 1 });
  const egress = (id: string): Egress => ({ id, label: id });
  const visit = async (id: string) => {
    const loaded = expectLoaded(await loader.load(request({ url: `${google.baseUrl}/search?who=${id}`, egress: egress(id) })));
    expect(loader.openContexts).toBeLessThanOrEqual(2);
    return /<p id="visit">(\w+)<\/p>/.exec(loaded.html)?.[1];
  };

  expect(await visit('a')).toBe('first');
  expect(await visit('a')).toBe('returning');
  expect(await visit('b')).toBe('first');
  expect(await visit('c')).toBe('first'); // closes a's context: a was used least recently
  expect(await visit('b')).toBe('returning');
  expect(await visit('a')).toBe('first'); // a fresh context again
});

describe('failures', () => {
  it('reports a timeout when the server does not answer in time', async () => {
    google.reset(() => ({ kind: 'delay', ms: 60_000, then: statusReply(200) }));

    const result = await newLoader({ navigationTimeoutMs: 1_000 }).load(request());

    expect(result).toEqual({ kind: 'timeout', detail: 'no readable page within 1000 ms' });
  });

  it('reports a refused connection as a load error', async () => {
    const closedPort = await new Promise<number>((resolve) => {
      const server = createServer().listen(0, '127.0.0.1', () => {
        const { port } = server.address() as AddressInfo;
        server.close(() => resolve(port));
      });
    });

    const result = await newLoader().load(request({ url: `http://127.0.0.1:${closedPort}/search?q=test` }));

    expect(result).toEqual({ kind: 'load-error', detail: 'net::ERR_CONNECTION_REFUSED' });
  });

  it('reports a closed browser as such, so callers do not retry on it', async () => {
    const doomed = await launchOfflineChromium();
    const loader = newLoader({}, doomed);
    await closeChromium(doomed);

    const result = await loader.load(request());

    expect(result.kind).toBe('browser-closed');
  });
});
