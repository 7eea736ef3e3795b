import { extname, join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { repositoryPath } from '@rank/platform/repository-path';
import { typescriptEntrySource } from '@rank/platform/typescript-hook';
import type { ChromiumPageLoaderOptions } from '../fetcher/chromium-page-loader';
import type { PageLoader, PageLoadRequest, PageLoadResult } from '../fetcher/page-loader';
import { BrowserUnavailableError, type ChromiumLaunchOptions } from './chromium';
import { killMarkedChromium, launchMarker } from './chromium-process';

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

/** Time the thread gets, beyond the browser's own close deadline, before it is stopped outright. */
const CLOSE_SLACK_MS = 2_000;

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

  private constructor(
    private readonly worker: Worker,
    /** The switch on this browser's Chromium command line, by which a hung one is found and killed. */
    private readonly marker: string,
  ) {
    worker.on('message', (message: BrowserThreadMessage) => this.receive(message));
    worker.on('error', (error) => this.end(`the browser's thread failed: ${error.message}`));
    worker.on('exit', () => this.end("the browser's thread has stopped"));
  }

  /**
   * Starts the thread and the chosen browser in it. Fails, as `launchChromium` does, with a
   * `BrowserUnavailableError` whose message says what to do; the thread is then stopped.
   */
  static async launch(options: ChromiumLaunchOptions = {}): Promise<BrowserThread> {
    const marker = launchMarker();
    const thread = new BrowserThread(startWorker(), marker);
    try {
      const marked = { ...options, extraArgs: [...(options.extraArgs ?? []), marker] };
      thread.browserVersion = String(await thread.request({ kind: 'launch', options: marked }));
    } catch (error) {
      await thread.worker.terminate();
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
    if (this.ended !== undefined) return;
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
      await this.worker.terminate();
    }
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
function startWorker(): Worker {
  const extension = extname(__filename);
  const entry = join(__dirname, `browser-thread-entry${extension}`);
  if (extension !== '.ts') return new Worker(entry);
  return new Worker(typescriptEntrySource(repositoryPath(), JSON.stringify(entry)), { eval: true });
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
