import type { PageLoader, PageLoadRequest, PageLoadResult } from '../fetcher/page-loader';
import type { BrowserThread } from './browser-thread';

type PageLoaderOptions = Parameters<BrowserThread['pageLoader']>[0];

/** What a RelaunchingBrowser tells its owner, for logs and /ready. */
export interface RelaunchingBrowserEvents {
  /** A browser started: the first one, or (`relaunch`) one after the last went away. */
  launched?(browser: BrowserThread, relaunch: boolean): void;
  /** A launch failed (`relaunch`: one after a browser that went away); the next use tries again. */
  launchFailed?(error: Error, relaunch: boolean): void;
}

/** Where the browser stands, without launching one. */
export type RelaunchingBrowserState =
  | { kind: 'not-launched' }
  | { kind: 'launching' }
  | { kind: 'running'; browser: BrowserThread }
  /** The last browser went away (Chromium crashed or was killed, or its thread died); the next use launches another. */
  | { kind: 'gone' };

/**
 * The scraper's browser for the life of the service: launched on first use, and launched again on
 * the next use after the last one went away. Without it one Chromium crash failed every check
 * until the service restarted. Page loaders opened here move to the new browser by themselves, so
 * the fetcher above them keeps its egresses' rests and pacing: those are about Google and the way
 * out, not about the browser, and forgetting a block's rest would send the next check straight back.
 */
export class RelaunchingBrowser {
  private launching: Promise<BrowserThread> | undefined;
  private launched: BrowserThread | undefined;
  private launches = 0;
  private closed = false;

  constructor(
    private readonly launch: () => Promise<BrowserThread>,
    private readonly events: RelaunchingBrowserEvents = {},
  ) {}

  /**
   * The running browser, launching one when none runs; concurrent callers share one launch. Fails
   * with the launch's error (a `BrowserUnavailableError` saying what to do).
   */
  running(): Promise<BrowserThread> {
    if (this.closed) return Promise.reject(new Error('the browser has been closed'));
    const gone = this.launched !== undefined && !this.launched.isConnected();
    if (this.launching && !gone) return this.launching;
    const previous = this.launched;
    this.launched = undefined;
    // The thread of a browser that went away still runs: stop it (its Chromium, if any is left, with it).
    previous?.close().catch(() => undefined);
    const relaunch = this.launches > 0;
    const launching = this.launch().then(
      async (browser) => {
        this.launches++;
        if (this.launching !== launching || this.closed) {
          // Closed while it started: nobody will use it, and close() waits for it to be gone.
          await browser.close().catch(() => undefined);
          throw new Error('the browser has been closed');
        }
        this.launched = browser;
        this.events.launched?.(browser, relaunch);
        return browser;
      },
      (error: unknown) => {
        // The next use tries again: a browser may have been installed meanwhile.
        if (this.launching === launching) this.launching = undefined;
        const failure = error instanceof Error ? error : new Error(String(error));
        this.events.launchFailed?.(failure, relaunch);
        throw failure;
      },
    );
    this.launching = launching;
    return launching;
  }

  state(): RelaunchingBrowserState {
    if (this.launched) return this.launched.isConnected() ? { kind: 'running', browser: this.launched } : { kind: 'gone' };
    return this.launching ? { kind: 'launching' } : { kind: 'not-launched' };
  }

  /** Browsers launched after the first (each after the one before went away). */
  get relaunches(): number {
    return Math.max(0, this.launches - 1);
  }

  /** The last launched browser's version ('' before the first launch). */
  version(): string {
    return this.launched?.version() ?? '';
  }

  /**
   * A page loader that loads on whichever browser runs, opening its loader there on first use. A
   * load the browser went away under is tried once more on a new browser: the page did not answer,
   * the browser did. When no browser can be launched, the load answers `browser-closed` with why.
   */
  pageLoader(options: PageLoaderOptions): PageLoader {
    let opened: { browser: BrowserThread; loader: PageLoader } | undefined;
    const loadOnce = async (request: PageLoadRequest): Promise<{ result: PageLoadResult; on?: BrowserThread }> => {
      let browser: BrowserThread;
      try {
        browser = await this.running();
      } catch (error) {
        return { result: { kind: 'browser-closed', detail: error instanceof Error ? error.message : String(error) } };
      }
      if (opened?.browser !== browser) opened = { browser, loader: browser.pageLoader(options) };
      return { result: await opened.loader.load(request), on: browser };
    };
    return {
      load: async (request) => {
        const first = await loadOnce(request);
        // Tried again only when the browser it ran on went away (not when none could be had).
        if (first.result.kind !== 'browser-closed' || this.closed || !first.on || first.on.isConnected()) return first.result;
        return (await loadOnce(request)).result;
      },
      close: async () => {
        const last = opened;
        opened = undefined;
        await last?.loader.close();
      },
    };
  }

  /** Closes the running browser, and any being launched; later uses fail. Safe to call twice. */
  async close(): Promise<void> {
    this.closed = true;
    const launching = this.launching;
    this.launching = undefined;
    this.launched = undefined;
    const browser = await launching?.catch(() => undefined);
    await browser?.close();
  }
}
