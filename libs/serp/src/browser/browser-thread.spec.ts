import { join } from 'node:path';
import type { Worker } from 'node:worker_threads';
import { repositoryPath } from '@rank/platform/repository-path';
import { runTypeScriptChild } from '@rank/platform/testing/run-typescript-child';
import { DIRECT_EGRESS } from '../fetcher/egress-pool';
import { BrowserThread } from './browser-thread';
import { BrowserUnavailableError } from './chromium';
import { chromiumBrowsersOf, hangChromium, stillRunningAfterWait } from './testing/chromium-processes';

const PROBE = join(__dirname, 'testing', 'promise-hook-probe.ts');

/** Runs the probe in a process of its own: jest's process may already carry another suite's hook. */
async function probe(
  where: 'thread' | 'here',
): Promise<{ kind: string; hasText: boolean; hookedBefore: boolean; hookedAfter: boolean; playwrightLoaded: boolean }> {
  return JSON.parse(await runTypeScriptChild(PROBE, [where], repositoryPath()));
}

describe('BrowserThread', () => {
  it("keeps Playwright out of the service's thread: a page loaded through it leaves this thread's promises untracked and Playwright unloaded", async () => {
    // Given a fresh process, when a page is loaded with Chromium in a BrowserThread
    const thread = await probe('thread');
    // then the page came through, this thread's promises carry no async-hook ids, and Playwright was never loaded here
    expect(thread).toEqual({ kind: 'loaded', hasText: true, hookedBefore: false, hookedAfter: false, playwrightLoaded: false });
  }, 60_000);

  it('the probe sees the hook when Playwright runs in the same thread (what the thread avoids)', async () => {
    const here = await probe('here');
    expect(here).toEqual({ kind: 'loaded', hasText: true, hookedBefore: false, hookedAfter: true, playwrightLoaded: true });
  }, 60_000);

  it('fails to launch as launchChromium does, with the fix in the message', async () => {
    const launch = BrowserThread.launch({ choice: { source: 'CHROMIUM_PATH', path: '/bin/false', skipped: [] }, launchTimeoutMs: 10_000 });
    await expect(launch).rejects.toBeInstanceOf(BrowserUnavailableError);
    await expect(launch).rejects.toThrow(/^No browser could be started: .*\(CHROMIUM_PATH \/bin\/false: /);
  }, 30_000);

  it('after close: not connected, loads answer browser-closed, and a second close is harmless', async () => {
    const thread = await BrowserThread.launch({ extraArgs: ['--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1'] });
    expect(thread.version()).toMatch(/\d+\.\d+/);
    expect(thread.isConnected()).toBe(true);
    const loader = thread.pageLoader({ navigationTimeoutMs: 5_000, maxConcurrentPages: 1, maxContexts: 1, subresourceHosts: [] });
    await thread.close();
    expect(thread.isConnected()).toBe(false);
    const result = await loader.load({
      url: 'http://127.0.0.1:9/',
      egress: DIRECT_EGRESS,
      userAgent: 'test',
      locale: 'en-US',
      acceptLanguage: 'en-US',
    });
    expect(result.kind).toBe('browser-closed');
    await expect(thread.close()).resolves.toBeUndefined();
  }, 30_000);

  it("a thread that dies takes its Chromium with it: Playwright's pipe closes with the thread, and Chromium exits", async () => {
    const thread = await BrowserThread.launch({ extraArgs: ['--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1'] });
    const [chromium] = chromiumBrowsersOf();
    expect(chromium).toBeDefined();
    // When the thread stops without closing its browser (as an uncaught error in it would stop it)
    await (thread as unknown as { worker: Worker }).worker.terminate();
    // then Chromium stops too (a zombie until the process reaps it: no memory, no pages), and the thread says it is gone
    expect(await stillRunningAfterWait(chromium!)).toBe(false);
    expect(thread.isConnected()).toBe(false);
    await expect(thread.close()).resolves.toBeUndefined();
  }, 30_000);

  it('a Chromium that answers nothing is killed when its close gives up, not left behind the thread', async () => {
    const thread = await BrowserThread.launch({ extraArgs: ['--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1'] });
    const [chromium] = chromiumBrowsersOf();
    expect(chromium).toBeDefined();
    // When Chromium hangs
    hangChromium(chromium!);
    // then its close fails after its deadline, as before, and Chromium no longer runs
    await expect(thread.close(1_000)).rejects.toThrow('Chromium did not close within 1000 ms');
    expect(await stillRunningAfterWait(chromium!)).toBe(false);
    expect(thread.isConnected()).toBe(false);
  }, 30_000);
});
