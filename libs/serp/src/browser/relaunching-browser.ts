import type { PageLoader, PageLoadRequest, PageLoadResult } from '../fetcher/page-loader';
import type { BrowserThread } from './browser-thread';

type PageLoaderOptions = Parameters<BrowserThread['pageLoader']>[0];

/** What a RelaunchingBrowser tells its owner, for logs and /ready. */
export interface RelaunchingBrowserEvents {
  /** A browser started: the first one, or (`relaunch`) one after the last went away. */
  launched?(browser: BrowserThread, relaunch: boolean): void;
  /** A launch failed (`relaunch`: one after a browser that went away); the next use tries again. */
  launchFailed?(error: Error, relaunch: boolean): void;
  /** Browsers keep going away before loading a page: none is launched before `until` (epoch ms). */
  resting?(until: number, why: string): void;
  /** The running browser stopped answering: it is closed (killed if need be), and the next use launches another. */
  stalled?(why: string): void;
}

/** Loads in a row that the browser itself did not answer, after which it is taken for hung. */
const STALLS_BEFORE_REPLACING = 2;
/** A hung browser is not waited for: its Chromium is killed after this. */
const HUNG_CLOSE_TIMEOUT_MS = 1_000;

/** Browsers in a row that went away before any load came back on them, after which launches rest. */
const CRASHES_BEFORE_REST = 3;
/** The first rest; each further such browser doubles it, up to the longest. */
export const FIRST_REST_MS = 30_000;
const LONGEST_REST_MS = 10 * 60_000;

/** How long launches rest after `crashes` browsers in a row went away before loading a page (0: none). */
function restAfter(crashes: number): number {
  if (crashes < CRASHES_BEFORE_REST) return 0;
  return Math.min(FIRST_REST_MS * 2 ** Math.min(crashes - CRASHES_BEFORE_REST, 20), LONGEST_REST_MS);
}

/** What a rest says: why, and when the next launch is. */
export const describeRest = (rest: { until: number; why: string }): string =>
  `${rest.why}; the next launch is at ${new Date(rest.until).toISOString()}`;

/** No browser is launched until `backAt`: the last ones kept going away before loading a page. */
export class BrowserRestingError extends Error {
  constructor(
    message: string,
    readonly backAt: number,
  ) {
    super(message);
    this.name = 'BrowserRestingError';
  }
}

/** Where the browser stands, without launching one. */
export type RelaunchingBrowserState =
  | { kind: 'not-launched' }
  | { kind: 'launching' }
  | { kind: 'running'; browser: BrowserThread }
  /** The last browser went away (Chromium crashed or was killed, or its thread died); the next use launches another. */
  | { kind: 'gone' }
  /** Browsers kept going away before loading a page: the first use from `until` (epoch ms) launches another. */
  | { kind: 'resting'; until: number; why: string };

/**
 * The scraper's browser for the life of the service: launched on first use, and launched again on
 * the next use after the last one went away. Without it one Chromium crash failed every check
 * until the service restarted. Page loaders opened here move to the new browser by themselves, so
 * the fetcher above them keeps its egresses' rests and pacing: those are about Google and the way
 * out, not about the browser, and forgetting a block's rest would send the next check straight back.
 *
 * A Chromium that dies before any page comes back on it (a broken install, a machine without the
 * memory it needs) would otherwise be launched again for every check, each launch costing a second
 * of CPU and failing the check all the same. After `CRASHES_BEFORE_REST` such browsers in a row,
 * launches rest (30 s, doubling up to 10 min); uses meanwhile fail at once with a
 * `BrowserRestingError` saying when the next launch is, so that scheduled checks come back then.
 *
 * A Chromium that hangs stays connected, and every load on it times out. Loads that the browser
 * itself did not answer (the page loader's watchdog) mark it: after two in a row it counts as gone,
 * its Chromium is killed, and the next use launches another.
 */
export class RelaunchingBrowser {
  private launching: Promise<BrowserThread> | undefined;
  private launched: BrowserThread | undefined;
  /** Whether a load came back on the launched browser (anything but the browser going away). */
  private launchedServed = false;
  /** Loads in a row the launched browser did not answer (`stalled` timeouts). */
  private stalls = 0;
  /** The launched browser, once taken for hung: it counts as gone. */
  private hung: BrowserThread | undefined;
  /** Browsers in a row that went away before any load came back on them. */
  private crashes = 0;
  private rest: { until: number; why: string } | undefined;
  private launches = 0;
  private closed = false;

  constructor(
    private readonly launch: () => Promise<BrowserThread>,
    private readonly events: RelaunchingBrowserEvents = {},
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * The running browser, launching one when none runs; concurrent callers share one launch. Fails
   * with the launch's error (a `BrowserUnavailableError` saying what to do), or while launches rest
   * with a `BrowserRestingError`.
   */
  running(): Promise<BrowserThread> {
    if (this.closed) return Promise.reject(new Error('the browser has been closed'));
    const gone = this.launched !== undefined && this.isGone(this.launched);
    if (this.launching && !gone) return this.launching;
    const previous = this.launched;
    this.launched = undefined;
    // The thread of a browser that went away still runs: stop it (its Chromium, if any is left, with it).
    previous?.close(previous === this.hung ? HUNG_CLOSE_TIMEOUT_MS : undefined).catch(() => undefined);
    if (gone) this.wentAway();
    if (this.rest && this.now() < this.rest.until) {
      this.launching = undefined;
      return Promise.reject(new BrowserRestingError(describeRest(this.rest), this.rest.until));
    }
    this.rest = undefined;
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
        this.launchedServed = false;
        this.stalls = 0;
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
    if (this.launched) return this.isGone(this.launched) ? { kind: 'gone' } : { kind: 'running', browser: this.launched };
    if (this.launching) return { kind: 'launching' };
    return this.rest && this.now() < this.rest.until ? { kind: 'resting', ...this.rest } : { kind: 'not-launched' };
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
   * the browser did. When no browser can be launched, the load answers `browser-closed` with why
   * (and, while launches rest, `backAt`).
   */
  pageLoader(options: PageLoaderOptions): PageLoader {
    let opened: { browser: BrowserThread; loader: PageLoader } | undefined;
    const loadOnce = async (request: PageLoadRequest): Promise<{ result: PageLoadResult; on?: BrowserThread }> => {
      let browser: BrowserThread;
      try {
        browser = await this.running();
      } catch (error) {
        const backAt = error instanceof BrowserRestingError ? { backAt: error.backAt } : {};
        return { result: { kind: 'browser-closed', detail: error instanceof Error ? error.message : String(error), ...backAt } };
      }
      if (opened?.browser !== browser) opened = { browser, loader: browser.pageLoader(options) };
      const result = await opened.loader.load(request);
      if (browser === this.launched) this.cameBack(browser, result);
      return { result, on: browser };
    };
    return {
      load: async (request) => {
        const first = await loadOnce(request);
        // Tried again only when the browser it ran on went away (not when none could be had).
        if (first.result.kind !== 'browser-closed' || this.closed || !first.on || !this.isGone(first.on)) return first.result;
        return (await loadOnce(request)).result;
      },
      close: async () => {
        const last = opened;
        opened = undefined;
        await last?.loader.close();
      },
    };
  }

  private isGone(browser: BrowserThread): boolean {
    return !browser.isConnected() || browser === this.hung;
  }

  /**
   * What a load on the launched browser tells of it. Anything but the browser going away shows it
   * works, even a timeout (the page did not answer), unless the browser itself did not answer:
   * after `STALLS_BEFORE_REPLACING` such loads in a row it is taken for hung, and replaced (and,
   * having loaded nothing, counts towards a rest like one that died).
   */
  private cameBack(browser: BrowserThread, result: PageLoadResult): void {
    if (result.kind === 'browser-closed') return;
    if (result.kind !== 'timeout' || !result.stalled) {
      this.launchedServed = true;
      this.stalls = 0;
      return;
    }
    this.stalls++;
    if (this.stalls < STALLS_BEFORE_REPLACING || this.hung === browser) return;
    this.hung = browser;
    this.events.stalled?.(`Chromium did not answer ${this.stalls} page loads in a row (${result.detail})`);
  }

  /** A browser went away: counted when no load came back on it, and launches rest after enough in a row. */
  private wentAway(): void {
    if (this.launchedServed) {
      this.crashes = 0;
      return;
    }
    this.crashes++;
    const rest = restAfter(this.crashes);
    if (rest === 0) return;
    const why = `Chromium went away before loading a page ${this.crashes} times in a row`;
    this.rest = { until: this.now() + rest, why };
    this.events.resting?.(this.rest.until, why);
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
