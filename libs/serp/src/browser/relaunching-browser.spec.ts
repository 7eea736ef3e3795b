import { existsSync, readdirSync } from 'node:fs';
import { basename } from 'node:path';
import { waitFor } from '@rank/platform/testing/wait-for';
import { DIRECT_EGRESS } from '../fetcher/egress-pool';
import type { PageLoader, PageLoadResult } from '../fetcher/page-loader';
import { FakeGoogle } from '../fetcher/test-support/fake-google';
import { launchOfflineBrowserThread } from '../fetcher/test-support/offline-chromium';
import { BrowserThread } from './browser-thread';
import { FIRST_REST_MS, RelaunchingBrowser } from './relaunching-browser';
import { chromiumBrowsersOf, crashChromium, hangChromium, isRunning, stillRunningAfterWait } from './testing/chromium-processes';
import { tempDirPerTest } from './testing/temp-dirs';

/** Real Chromium, crashed the way the machine would crash it (SIGKILL), against a local fake Google. */

let google: FakeGoogle;
let browser: RelaunchingBrowser | undefined;
const launches: boolean[] = [];
const launched: BrowserThread[] = [];
const failures: string[] = [];
const rests: number[] = [];
const stalls: string[] = [];

beforeAll(async () => {
  google = await FakeGoogle.start();
});

afterEach(async () => {
  await browser?.close();
  browser = undefined;
  launches.length = 0;
  launched.length = 0;
  failures.length = 0;
  rests.length = 0;
  stalls.length = 0;
  google.reset(() => ({ kind: 'page', html: '<html><body>no handler</body></html>' }));
});

afterAll(async () => {
  await google.close();
});

function relaunching(
  launch: () => Promise<BrowserThread> = () => launchOfflineBrowserThread(),
  now: () => number = Date.now,
): RelaunchingBrowser {
  browser = new RelaunchingBrowser(
    launch,
    {
      launched: (thread, relaunch) => {
        launches.push(relaunch);
        launched.push(thread);
      },
      launchFailed: (error) => failures.push(error.message),
      resting: (until) => rests.push(until),
      stalled: (why) => stalls.push(why),
    },
    now,
  );
  return browser;
}

function loaderOn(on: RelaunchingBrowser, navigationTimeoutMs = 10_000): PageLoader {
  return on.pageLoader({ navigationTimeoutMs, maxConcurrentPages: 2, maxContexts: 1, subresourceHosts: [] });
}

function load(loader: PageLoader, q: string): Promise<PageLoadResult> {
  return loader.load({
    url: `${google.baseUrl}/search?q=${q}`,
    egress: DIRECT_EGRESS,
    userAgent: 'test',
    locale: 'en-US',
    acceptLanguage: 'en-US',
  });
}

const tempRoot = tempDirPerTest();

/** The offline browser of launchOfflineBrowserThread, making its temp directory in the test's. */
const launchInTestTempDir = () =>
  BrowserThread.launch({
    extraArgs: ['--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE localhost'],
    tempRoot: tempRoot(),
  });

/** Waits until the first browser's temp directory is gone; then only the running one's is left in the test's. */
async function expectOnlyTheRunningBrowsersTempDir(): Promise<void> {
  const [first] = launched;
  await waitFor(
    async () => existsSync(first!.tempDir),
    (exists) => !exists,
    10_000,
  );
  expect(readdirSync(tempRoot())).toEqual([basename(launched.at(-1)!.tempDir)]);
}

/** The one running browser this process started (only this suite's browser runs while it does). */
function theBrowserProcess(): number {
  const running = chromiumBrowsersOf();
  expect(running).toHaveLength(1);
  return running[0]!;
}

describe('RelaunchingBrowser', () => {
  it('launches another browser on the next load after Chromium was killed, through the loader opened before', async () => {
    google.reset(({ query }) => ({ kind: 'page', html: `<html><body>page ${query.get('q')}</body></html>` }));
    const kept = relaunching(launchInTestTempDir);
    const loader = loaderOn(kept);
    expect(await load(loader, 'one')).toMatchObject({ kind: 'loaded', status: 200 });
    const first = theBrowserProcess();

    // When Chromium dies between loads
    crashChromium(first);
    await waitFor(
      async () => kept.state().kind,
      (kind) => kind === 'gone',
    );

    // then the next load launches another browser and loads on it
    const after = await load(loader, 'two');
    expect(after).toMatchObject({ kind: 'loaded', status: 200 });
    expect(after.kind === 'loaded' && after.html).toContain('page two');
    expect(launches).toEqual([false, true]);
    expect(kept.relaunches).toBe(1);
    expect(kept.state().kind).toBe('running');
    const second = theBrowserProcess();
    expect(second).not.toBe(first);
    expect(isRunning(first)).toBe(false);
    // and the killed browser's profile, artifacts and Chromium's own directory went with its launch's temp directory
    await expectOnlyTheRunningBrowsersTempDir();
  }, 60_000);

  it('tries a load once more on a new browser when the browser dies under it', async () => {
    const kept = relaunching();
    const loader = loaderOn(kept);
    await kept.running();
    let asked = 0;
    google.reset(() => {
      asked++;
      // The first request kills the browser that sent it, before any answer.
      if (asked === 1) crashChromium(theBrowserProcess());
      return { kind: 'page', html: `<html><body>answer ${asked}</body></html>` };
    });

    const result = await load(loader, 'crash');

    expect(result.kind === 'loaded' && result.html).toContain('answer 2');
    expect(launches).toEqual([false, true]);
  }, 60_000);

  it('tries every load the browser died under once more, not only the first to notice', async () => {
    const kept = relaunching();
    const loader = loaderOn(kept);
    await kept.running();
    let asked = 0;
    google.reset(({ query }) => {
      asked++;
      // The first request kills the browser while the other load is on its way too.
      if (asked === 1) crashChromium(theBrowserProcess());
      return { kind: 'page', html: `<html><body>answer ${query.get('q')}</body></html>` };
    });

    const [a, b] = await Promise.all([load(loader, 'a'), load(loader, 'b')]);

    expect(a.kind === 'loaded' && a.html).toContain('answer a');
    expect(b.kind === 'loaded' && b.html).toContain('answer b');
    expect(launches).toEqual([false, true]);
  }, 60_000);

  it('a load answers browser-closed with why when no browser starts, and the next load tries again', async () => {
    let attempt = 0;
    const kept = relaunching(() => {
      attempt++;
      return attempt === 1
        ? BrowserThread.launch({ choice: { source: 'CHROMIUM_PATH', path: '/bin/false', skipped: [] }, launchTimeoutMs: 10_000 })
        : launchOfflineBrowserThread();
    });
    const loader = loaderOn(kept);

    const failed = await load(loader, 'first');
    expect(failed).toMatchObject({ kind: 'browser-closed', detail: expect.stringMatching(/^No browser could be started: /) });
    expect(failures).toEqual([expect.stringMatching(/^No browser could be started: /)]);
    expect(kept.state().kind).toBe('not-launched');

    google.reset(() => ({ kind: 'page', html: '<html><body>second try</body></html>' }));
    expect(await load(loader, 'second')).toMatchObject({ kind: 'loaded', status: 200 });
    expect(launches).toEqual([false]);
  }, 60_000);

  it('closed while launching: no browser is left running and later uses fail', async () => {
    const kept = relaunching();
    const launching = kept.running();
    await kept.close();
    await expect(launching).rejects.toThrow('the browser has been closed');
    expect(chromiumBrowsersOf()).toEqual([]);
    await expect(kept.running()).rejects.toThrow('the browser has been closed');
    expect(await load(loaderOn(kept), 'late')).toMatchObject({ kind: 'browser-closed' });
  }, 60_000);

  it('rests its launches after three browsers in a row went away before loading a page, longer each time, and launches again after', async () => {
    let now = Date.parse('2026-05-04T07:00:00.000Z');
    // Chromium that dies as soon as it has started, as one short of memory or broken would.
    let dying = true;
    const kept = relaunching(
      async () => {
        const thread = await launchOfflineBrowserThread();
        if (dying) {
          crashChromium(theBrowserProcess());
          await waitFor(
            async () => thread.isConnected(),
            (connected) => !connected,
          );
        }
        return thread;
      },
      () => now,
    );
    const loader = loaderOn(kept);

    // Two browsers die under the first load (it is tried once more), a third under the second load's first try
    expect(await load(loader, 'one')).toEqual({ kind: 'browser-closed', detail: 'the browser is not running' });
    const resting = await load(loader, 'two');
    // then the second load's second try meets the rest, which says when the next launch is
    const firstBack = now + FIRST_REST_MS;
    expect(resting).toEqual({
      kind: 'browser-closed',
      detail: `Chromium went away before loading a page 3 times in a row; the next launch is at ${new Date(firstBack).toISOString()}`,
      backAt: firstBack,
    });
    expect(launches).toHaveLength(3);
    expect(rests).toEqual([firstBack]);
    expect(kept.state()).toMatchObject({ kind: 'resting', until: firstBack });

    // and until then no browser is launched
    now += FIRST_REST_MS - 1;
    expect(await load(loader, 'three')).toMatchObject({ kind: 'browser-closed', backAt: firstBack });
    expect(launches).toHaveLength(3);
    expect(chromiumBrowsersOf()).toEqual([]);

    // When the rest is over and the next browser dies as well, the rest doubles
    now += 1;
    expect(await load(loader, 'four')).toMatchObject({ kind: 'browser-closed', backAt: now + 2 * FIRST_REST_MS });
    expect(launches).toHaveLength(4);

    // and a browser that works after the second rest loads, and ends the count
    now += 2 * FIRST_REST_MS;
    dying = false;
    google.reset(({ query }) => ({ kind: 'page', html: `<html><body>page ${query.get('q')}</body></html>` }));
    expect(await load(loader, 'five')).toMatchObject({ kind: 'loaded', status: 200 });
    expect(kept.state().kind).toBe('running');

    // so that one crash after it had loaded a page is launched again at once, as before
    crashChromium(theBrowserProcess());
    await waitFor(
      async () => kept.state().kind,
      (kind) => kind === 'gone',
    );
    const after = await load(loader, 'six');
    expect(after.kind === 'loaded' && after.html).toContain('page six');
    expect(launches).toHaveLength(6);
    expect(rests).toHaveLength(2);
  }, 90_000);

  it('takes a browser that answers nothing for gone after two loads in a row, kills its Chromium, and loads on another', async () => {
    google.reset(({ query }) => ({ kind: 'page', html: `<html><body>page ${query.get('q')}</body></html>` }));
    const kept = relaunching(launchInTestTempDir);
    const loader = loaderOn(kept, 1_000);
    expect(await load(loader, 'one')).toMatchObject({ kind: 'loaded' });
    const hung = theBrowserProcess();

    // When Chromium hangs: it stays connected, and two loads time out past the watchdog's deadline
    hangChromium(hung);
    const [a, b] = await Promise.all([load(loader, 'a'), load(loader, 'b')]);
    expect(a).toEqual({ kind: 'timeout', detail: 'the browser did not answer within 6000 ms', stalled: true });
    expect(b).toMatchObject({ kind: 'timeout', stalled: true });
    expect(stalls).toEqual(['Chromium did not answer 2 page loads in a row (the browser did not answer within 6000 ms)']);
    expect(kept.state().kind).toBe('gone');

    // then the next load launches another browser and loads there, and the hung Chromium is killed
    const after = await load(loader, 'two');
    expect(after.kind === 'loaded' && after.html).toContain('page two');
    expect(launches).toEqual([false, true]);
    expect(await stillRunningAfterWait(hung)).toBe(false);
    expect(rests).toEqual([]);
    await expectOnlyTheRunningBrowsersTempDir();
  }, 60_000);
});
