import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { closeChromium } from '../browser/chromium';
import type { Egress } from './egress-pool';
import { ChromiumPageLoader, type ChromiumPageLoaderOptions, type PageLoadRequest, type PageLoadResult } from './page-loader';
import { FakeGoogle, statusReply } from './test-support/fake-google';
import { launchOfflineChromium } from './test-support/offline-chromium';

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
    </script></body></html>`,
  }));
  const userAgent = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/150.0.0.0 Safari/537.36';

  const loaded = expectLoaded(await newLoader().load(request({ userAgent, locale: 'de-AT', acceptLanguage: 'de-AT,de' })));

  expect(loaded.status).toBe(200);
  expect(loaded.html).toMatch(/^<!DOCTYPE html>/);
  expect(loaded.html).toContain(`data-ua="${userAgent}"`);
  expect(loaded.html).toContain('data-lang="de-AT"');
  expect(loaded.html).toContain('data-platform="Win32"');
  expect(loaded.html).toContain('data-intl="de-AT"');
  expect(google.searches[0].headers['user-agent']).toBe(userAgent);
  expect(google.searches[0].headers['accept-language']).toBe('de-AT,de;q=0.9');
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
