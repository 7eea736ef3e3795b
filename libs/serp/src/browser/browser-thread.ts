import { rmSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { extname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Worker } from 'node:worker_threads';
import { repositoryPath } from '@rank/platform/repository-path';
import { typescriptEntrySource } from '@rank/platform/typescript-hook';
import type { ChromiumPageLoaderOptions } from '../fetcher/chromium-page-loader';
import type { PageLoader, PageLoadRequest, PageLoadResult } from '../fetcher/page-loader';
import { BrowserUnavailableError, type ChromiumLaunchOptions } from './chromium';
import { killMarkedChromium, launchMarker, markedChromiumRuns } from './chromium-process';

/** What the service's thread asks of the browser's thread; each command is answered once, by its id. */
export type BrowserThreadCommand = { id: number } & (
  | { kind: 'launch'; options: ChromiumLaunchOptions }
  | { kind: 'open-loader'; loader: number; options: ChromiumPageLoaderOptions }
  | { kind: 'load'; loader: number; request: PageLoadRequest }
  | { kind: 'close-loader'; loader: number }
  | { kind: 'close'; timeoutMs: number }
);

/** What the browser's thread tells the service's: an answer to a command, or that the browser went away. */
export type BrowserThreadMessage =
  { kind: 'done'; id: number; value: unknown } | { kind: 'failed'; id: number; message: string } | { kind: 'disconnected' };

type CommandBody = BrowserThreadCommand extends infer C ? (C extends { id: number } ? Omit<C, 'id'> : never) : never;

export interface BrowserThreadOptions extends ChromiumLaunchOptions {
  /**
   * The machine's temp directory, where the launch makes its own and the bundled Chromium is
   * unpacked: `os.tmpdir()` by default (tests give one of their own, to see what is left in it).
   */
  tempRoot?: string;
}

/** Time the thread gets, beyond the browser's own close deadline, before it is stopped outright. */
const CLOSE_SLACK_MS = 2_000;

/**
 * The longest path a Unix socket can have on Linux (108 bytes, the last a NUL), and what Chromium adds
 * to its TMPDIR for its own: `/org.chromium.Chromium.XXXXXX/SingletonSocket`. Past it, Chromium does
 * not start.
 */
const SOCKET_PATH_MAX = 107;
const CHROMIUM_SOCKET_IN_TEMP_DIR = '/org.chromium.Chromium.XXXXXX/SingletonSocket'.length;

/** How long a launch's temp directory waits for its killed Chromium to be gone before it is removed all the same. */
const CHROMIUM_GONE_WAIT_MS = 5_000;

/** The launches' temp directories not removed yet, each with its Chromium's switch. */
const tempDirsInUse = new Map<string, string>();
let exitHookAdded = false;

/** Counts the launch's temp directory in, for the exit hook to remove if the process exits before its close. */
function removeAtExit(dir: string, marker: string): void {
  if (!exitHookAdded) process.on('exit', removeTempDirsLeft);
  exitHookAdded = true;
  tempDirsInUse.set(dir, marker);
}

/**
 * A process that exits (`process.exit` after SHUTDOWN_TIMEOUT_MS, or a second signal) stops its
 * threads without their cleanup: each Chromium would exit when its pipe closed and leave its profile
 * (1.3 MB each) in the temp directory. An exit listener can only work synchronously: kill, then remove.
 */
function removeTempDirsLeft(): void {
  for (const [dir, marker] of tempDirsInUse) {
    killMarkedChromium(marker);
    try {
      rmSync(dir, { recursive: true, force: true, maxRetries: 2 });
    } catch {
      // The process is exiting: what cannot be removed now is left.
    }
  }
}

/**
 * Chromium driven from a worker thread of its own. Playwright's client keeps an AsyncLocalStorage,
 * and on Node 20 its first `run()` turns on a hook that runs for every promise the isolate makes,
 * for good: with the browser in the service's thread, every API request cost that thread 34-41 %
 * more after the first scrape (issue 15). A worker thread is another isolate, so the hook stays
 * there. The thread holds the browser and its page loaders; pages' HTML crosses as strings.
 */
export class BrowserThread {
  private readonly pending = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
  private nextId = 1;
  private connected = false;
  /** Why the thread can take no more commands, once it cannot. */
  private ended: string | undefined;
  private browserVersion = '';
  private tempDirRemoval: Promise<void> | undefined;

  private constructor(
    private readonly worker: Worker,
    /** The switch on this browser's Chromium command line, by which a hung one is found and killed. */
    private readonly marker: string,
    /** This launch's temp directory: the thread's TMPDIR, so Playwright's and Chromium's own temp directories. */
    readonly tempDir: string,
  ) {
    worker.on('message', (message: BrowserThreadMessage) => this.receive(message));
    worker.on('error', (error) => this.end(`the browser's thread failed: ${error.message}`));
    worker.on('exit', () => {
      this.end("the browser's thread has stopped");
      // A thread that died by itself is cleaned up as one stopped by close() is.
      this.removeTempDir().catch(() => undefined);
    });
  }

  /**
   * Starts the thread and the chosen browser in it. Fails, as `launchChromium` does, with a
   * `BrowserUnavailableError` whose message says what to do; the thread is then stopped.
   *
   * The thread gets a temp directory of its own as its TMPDIR, which Playwright's client (its
   * browser profile, ~1.3 MB, and artifacts) and Chromium (its SingletonSocket's directory) both
   * take. Playwright deletes its own only from a thread that lives on after the browser exits, and a
   * crashed or hung browser's thread is stopped at once; Chromium's own is never Playwright's to
   * delete, so every Chromium killed left one. Removing the launch's directory removes them all.
   */
  static async launch({ tempRoot = tmpdir(), ...options }: BrowserThreadOptions = {}): Promise<BrowserThread> {
    const marker = launchMarker();
    let tempDir: string;
    try {
      tempDir = await mkdtemp(join(tempRoot, 'rank-tracker-browser-'));
    } catch (error) {
      throw new BrowserUnavailableError(
        `No browser could be started: no temp directory could be made in ${tempRoot} (${messageOf(error)})`,
      );
    }
    removeAtExit(tempDir, marker);
    const thread = new BrowserThread(startWorker({ ...process.env, TMPDIR: tempDir }), marker, tempDir);
    try {
      // The bundled Chromium is unpacked once per machine, in the machine's temp directory, not the launch's.
      const marked: ChromiumLaunchOptions = { unpackInto: tempRoot, ...options, extraArgs: [...(options.extraArgs ?? []), marker] };
      // Under a long TMPDIR Chromium's socket would not fit in the launch's directory: Chromium keeps the
      // machine's then, as before, and only its own directory is left after a kill.
      if (tempDir.length + CHROMIUM_SOCKET_IN_TEMP_DIR > SOCKET_PATH_MAX) marked.chromiumTempDir = tempRoot;
      thread.browserVersion = String(await thread.request({ kind: 'launch', options: marked }));
    } catch (error) {
      await thread.stop();
      // The thread's launchChromium failed with the message to show (or the thread itself did); errors cross as text.
      throw new BrowserUnavailableError(messageOf(error));
    }
    thread.connected = true;
    return thread;
  }

  /** What the browser says it is, as Playwright's `Browser.version()`. */
  version(): string {
    return this.browserVersion;
  }

  isConnected(): boolean {
    return this.connected;
  }

  /** A page loader on this browser, as `new ChromiumPageLoader(browser, options)` in the thread. */
  pageLoader(options: ChromiumPageLoaderOptions): PageLoader {
    const loader = this.nextId++;
    this.request({ kind: 'open-loader', loader, options }).catch(() => undefined);
    return {
      load: (request) => this.load(loader, request),
      close: async () => {
        await this.request({ kind: 'close-loader', loader }).catch(() => undefined);
      },
    };
  }

  /**
   * Closes the browser, then stops the thread. Safe to call twice or after a crash; like
   * `closeChromium`, fails when the browser did not close within `timeoutMs`, and then kills its
   * Chromium, which would otherwise outlive the thread and the service.
   */
  async close(timeoutMs = 10_000): Promise<void> {
    if (this.ended !== undefined) return this.stop();
    let timer: NodeJS.Timeout | undefined;
    const gaveUp = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`Chromium did not close within ${timeoutMs} ms`)), timeoutMs + CLOSE_SLACK_MS);
    });
    try {
      await Promise.race([this.request({ kind: 'close', timeoutMs }), gaveUp]);
    } catch (error) {
      killMarkedChromium(this.marker);
      throw error;
    } finally {
      clearTimeout(timer);
      this.connected = false;
      await this.stop();
    }
  }

  /** Stops the thread, and removes the launch's temp directory once its Chromium is gone. */
  private async stop(): Promise<void> {
    await this.worker.terminate();
    await this.removeTempDir();
  }

  private removeTempDir(): Promise<void> {
    this.tempDirRemoval ??= (async () => {
      // Without its thread nothing drives this Chromium: one exiting by itself (its pipe closed) would
      // still write its profile while it went, so it is killed and waited for.
      killMarkedChromium(this.marker);
      await chromiumGone(this.marker);
      try {
        await rm(this.tempDir, { recursive: true, force: true, maxRetries: 2 });
        tempDirsInUse.delete(this.tempDir);
      } catch {
        // Not a failure of the close: the exit hook tries again.
      }
    })();
    return this.tempDirRemoval;
  }

  private async load(loader: number, request: PageLoadRequest): Promise<PageLoadResult> {
    if (!this.connected) return { kind: 'browser-closed', detail: 'the browser is not running' };
    try {
      return (await this.request({ kind: 'load', loader, request })) as PageLoadResult;
    } catch (error) {
      return { kind: 'browser-closed', detail: messageOf(error) };
    }
  }

  private request(body: CommandBody): Promise<unknown> {
    if (this.ended !== undefined) return Promise.reject(new Error(this.ended));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ id, ...body } as BrowserThreadCommand);
    });
  }

  private receive(message: BrowserThreadMessage): void {
    switch (message.kind) {
      case 'disconnected':
        this.connected = false;
        return;
      case 'done':
      case 'failed': {
        const waiting = this.pending.get(message.id);
        this.pending.delete(message.id);
        if (message.kind === 'done') waiting?.resolve(message.value);
        else waiting?.reject(new Error(message.message));
        return;
      }
      default: {
        const unknown: never = message;
        throw new Error(`unknown message from the browser's thread: ${JSON.stringify(unknown)}`);
      }
    }
  }

  private end(reason: string): void {
    this.connected = false;
    this.ended ??= reason;
    for (const waiting of this.pending.values()) waiting.reject(new Error(reason));
    this.pending.clear();
  }
}

/**
 * The thread runs browser-thread-entry beside this file: JavaScript in the built service. Run
 * from the sources (tests), it is TypeScript, which the thread compiles as it requires it.
 */
function startWorker(env: NodeJS.ProcessEnv): Worker {
  const extension = extname(__filename);
  const entry = join(__dirname, `browser-thread-entry${extension}`);
  // The thread's process.env is its own: os.tmpdir() there, and Chromium started from there, read this TMPDIR.
  if (extension !== '.ts') return new Worker(entry, { env });
  return new Worker(typescriptEntrySource(repositoryPath(), JSON.stringify(entry)), { eval: true, env });
}

/** Waits, up to CHROMIUM_GONE_WAIT_MS, until the Chromium launched with `marker` no longer runs. */
async function chromiumGone(marker: string): Promise<void> {
  const deadline = Date.now() + CHROMIUM_GONE_WAIT_MS;
  while (markedChromiumRuns(marker) && Date.now() < deadline) await sleep(50);
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
