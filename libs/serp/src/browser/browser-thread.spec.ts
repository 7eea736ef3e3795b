import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { Worker } from 'node:worker_threads';
import { repositoryPath } from '@rank/platform/repository-path';
import { runTypeScriptChild } from '@rank/platform/testing/run-typescript-child';
import { typescriptEntrySource } from '@rank/platform/typescript-hook';
import { DIRECT_EGRESS } from '../fetcher/egress-pool';
import { BrowserThread } from './browser-thread';
import { BrowserUnavailableError } from './chromium';
import { chromiumBrowsersOf, hangChromium, stillRunningAfterWait } from './testing/chromium-processes';
import { tempDirPerTest } from './testing/temp-dirs';

const PROBE = join(__dirname, 'testing', 'promise-hook-probe.ts');
const EXIT_WITH_BROWSER = join(__dirname, 'testing', 'exit-with-browser.ts');
const OFFLINE = ['--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1'];

/** Runs the probe in a process of its own: jest's process may already carry another suite's hook. */
async function probe(
  where: 'thread' | 'here',
): Promise<{ kind: string; hasText: boolean; hookedBefore: boolean; hookedAfter: boolean; playwrightLoaded: boolean }> {
  return JSON.parse(await runTypeScriptChild(PROBE, [where], repositoryPath()));
}

/** Runs exit-with-browser.ts in a process of its own with `tmpdir` as its TMPDIR; answers what it printed and its exit code. */
function exitWithBrowser(tmpdir: string): Promise<{ code: number | null; printed: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', typescriptEntrySource(repositoryPath(), 'process.argv[1]'), EXIT_WITH_BROWSER], {
      cwd: repositoryPath(),
      env: { ...process.env, TMPDIR: tmpdir },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let printed = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (printed += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code, printed, stderr }));
  });
}

describe('BrowserThread', () => {
  const tempRoot = tempDirPerTest();

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
    const launch = BrowserThread.launch({
      choice: { source: 'CHROMIUM_PATH', path: '/bin/false', skipped: [] },
      launchTimeoutMs: 10_000,
      tempRoot: tempRoot(),
    });
    await expect(launch).rejects.toBeInstanceOf(BrowserUnavailableError);
    await expect(launch).rejects.toThrow(/^No browser could be started: .*\(CHROMIUM_PATH \/bin\/false: /);
    expect(readdirSync(tempRoot())).toEqual([]);
  }, 30_000);

  it('after close: not connected, loads answer browser-closed, and a second close is harmless', async () => {
    const thread = await BrowserThread.launch({ extraArgs: OFFLINE, tempRoot: tempRoot() });
    expect(thread.version()).toMatch(/\d+\.\d+/);
    expect(thread.isConnected()).toBe(true);
    const whileRunning = { tempRoot: readdirSync(tempRoot()), launchDir: thread.tempDir && readdirSync(thread.tempDir) };
    const loader = thread.pageLoader({ navigationTimeoutMs: 5_000, maxConcurrentPages: 1, maxContexts: 1, subresourceHosts: [] });
    await thread.close();
    expect(thread.isConnected()).toBe(false);
    // Playwright's profile and Chromium's own directory were made in the launch's temp directory, and nothing beside it
    expect(whileRunning).toEqual({
      tempRoot: [basename(thread.tempDir)],
      launchDir: expect.arrayContaining([
        expect.stringMatching(/^playwright_chromiumdev_profile-/),
        expect.stringMatching(/^org\.chromium\.Chromium\./),
      ]),
    });
    const result = await loader.load({
      url: 'http://127.0.0.1:9/',
      egress: DIRECT_EGRESS,
      userAgent: 'test',
      locale: 'en-US',
      acceptLanguage: 'en-US',
    });
    expect(result.kind).toBe('browser-closed');
    await expect(thread.close()).resolves.toBeUndefined();
    expect(readdirSync(tempRoot())).toEqual([]);
  }, 30_000);

  it("under a TMPDIR too long for Chromium's socket in the launch's directory, the browser starts all the same and leaves nothing after its close", async () => {
    // 55 characters: room for Chromium's socket (45 more) in it, as before, not in a launch's directory inside it
    const longRoot = join(tempRoot(), 'a'.repeat(55 - tempRoot().length - 1));
    mkdirSync(longRoot);
    const thread = await BrowserThread.launch({ extraArgs: OFFLINE, tempRoot: longRoot });
    const inLaunchDir = thread.tempDir && readdirSync(thread.tempDir);
    await thread.close();
    expect(inLaunchDir).toEqual(expect.arrayContaining([expect.stringMatching(/^playwright_chromiumdev_profile-/)]));
    expect(readdirSync(longRoot)).toEqual([]);
  }, 30_000);

  it("a thread that dies takes its Chromium with it: Playwright's pipe closes with the thread, and Chromium exits", async () => {
    const thread = await BrowserThread.launch({ extraArgs: OFFLINE, tempRoot: tempRoot() });
    const [chromium] = chromiumBrowsersOf();
    expect(chromium).toBeDefined();
    // When the thread stops without closing its browser (as an uncaught error in it would stop it)
    await (thread as unknown as { worker: Worker }).worker.terminate();
    // then Chromium stops too (a zombie until the process reaps it: no memory, no pages), and the thread says it is gone
    expect(await stillRunningAfterWait(chromium!)).toBe(false);
    expect(thread.isConnected()).toBe(false);
    await expect(thread.close()).resolves.toBeUndefined();
    // and the thread's temp directory goes with them, Playwright's and Chromium's directories in it
    expect(dirname(thread.tempDir)).toBe(tempRoot());
    expect(readdirSync(tempRoot())).toEqual([]);
  }, 30_000);

  it('a Chromium that answers nothing is killed when its close gives up, not left behind the thread', async () => {
    const thread = await BrowserThread.launch({ extraArgs: OFFLINE, tempRoot: tempRoot() });
    const [chromium] = chromiumBrowsersOf();
    expect(chromium).toBeDefined();
    // When Chromium hangs
    hangChromium(chromium!);
    // then its close fails after its deadline, as before, and Chromium no longer runs
    await expect(thread.close(1_000)).rejects.toThrow('Chromium did not close within 1000 ms');
    expect(await stillRunningAfterWait(chromium!)).toBe(false);
    expect(thread.isConnected()).toBe(false);
    // and the killed Chromium's directories (which neither it nor Playwright removes) go with the launch's
    expect(dirname(thread.tempDir)).toBe(tempRoot());
    expect(readdirSync(tempRoot())).toEqual([]);
  }, 30_000);

  it('a process that exits with its browser open (process.exit after SHUTDOWN_TIMEOUT_MS) leaves no temp directory behind', async () => {
    const { code, printed, stderr } = await exitWithBrowser(tempRoot());
    expect({ code, stderr }).toEqual({ code: 1, stderr: '' });
    const { chromium, tempDir } = JSON.parse(printed) as { chromium: number; tempDir: string };
    // Its Chromium does not outlive it (it is killed before its directory is removed), and nothing is left
    expect(await stillRunningAfterWait(chromium)).toBe(false);
    expect(readdirSync(tempRoot())).toEqual([]);
    expect(dirname(tempDir)).toBe(tempRoot());
  }, 30_000);
});
