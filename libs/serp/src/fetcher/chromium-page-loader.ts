import { randomBytes } from 'node:crypto';
import { errors, type Browser, type BrowserContext, type Page, type Request, type Response, type Route } from 'playwright-core';
import { BrowserContextPool } from './browser-context-pool';
import { Semaphore } from './semaphore';
import { navigatorPlatform, type ContextCookie, type PageLoader, type PageLoadRequest, type PageLoadResult } from './page-loader';

export interface ChromiumPageLoaderOptions {
  navigationTimeoutMs: number;
  maxConcurrentPages: number;
  maxContexts: number;
  /** Hosts (with subdomains) subresources may come from, besides the page's own host. */
  subresourceHosts: readonly string[];
  /** Cookies every new browser context starts with (Google's consent cookie, see google-consent.ts). */
  contextCookies?: readonly ContextCookie[];
  /** Resource types never fetched; they carry nothing a parser reads. */
  blockedResourceTypes?: readonly string[];
  /**
   * Main-frame documents one load may fetch: the first plus script redirects (Google's JavaScript
   * challenge reloads the page). A page that keeps reloading itself stops here instead of
   * hammering the server until the timeout.
   */
  maxDocumentsPerLoad?: number;
  /** After the DOM is parsed, how long to wait for `load` (late scripts, e.g. AI Overview). */
  loadGraceMs?: number;
}

const DEFAULT_BLOCKED_RESOURCE_TYPES = ['image', 'media', 'font'];
const DEFAULT_MAX_DOCUMENTS_PER_LOAD = 4;
const DEFAULT_LOAD_GRACE_MS = 3_000;
const WATCHDOG_SLACK_MS = 5_000;

/**
 * Page loader on a shared Chromium: a bounded pool of contexts (one per egress), a limit on pages
 * in flight, and a deadline per load. Returns the rendered DOM, not the raw response, because
 * Google fills parts of the page (AI Overview) with JavaScript.
 */
export class ChromiumPageLoader implements PageLoader {
  private readonly contexts: BrowserContextPool;
  private readonly slots: Semaphore;
  private readonly blockedResourceTypes: ReadonlySet<string>;
  private readonly maxDocumentsPerLoad: number;
  private readonly loadGraceMs: number;
  private readonly navigationCounting = new WeakMap<BrowserContext, Promise<void>>();

  constructor(
    private readonly browser: Browser,
    private readonly options: ChromiumPageLoaderOptions,
  ) {
    // Every page in flight holds a context, so fewer contexts than slots would thrash the pool.
    this.contexts = new BrowserContextPool(
      browser,
      Math.max(options.maxContexts, options.maxConcurrentPages),
      options.contextCookies ?? [],
    );
    this.slots = new Semaphore(options.maxConcurrentPages);
    this.blockedResourceTypes = new Set(options.blockedResourceTypes ?? DEFAULT_BLOCKED_RESOURCE_TYPES);
    this.maxDocumentsPerLoad = options.maxDocumentsPerLoad ?? DEFAULT_MAX_DOCUMENTS_PER_LOAD;
    this.loadGraceMs = options.loadGraceMs ?? DEFAULT_LOAD_GRACE_MS;
  }

  /** Browser contexts currently open (for tests and metrics). */
  get openContexts(): number {
    return this.contexts.size;
  }

  load(request: PageLoadRequest): Promise<PageLoadResult> {
    return this.slots.run(async () => {
      if (!this.browser.isConnected()) return { kind: 'browser-closed', detail: 'the browser is not running' };
      // The navigation deadline covers the page; this one also covers opening a context and page,
      // and closing it, so no browser stall can hold a slot (and the worker) forever.
      const watchdog = Date.now() + this.options.navigationTimeoutMs + WATCHDOG_SLACK_MS;
      try {
        const work = this.contexts.withContext(request.egress, async (context) => {
          await this.countNavigationsIn(context);
          const page = await context.newPage();
          try {
            return await this.loadInPage(page, request);
          } finally {
            await withDeadline(page.close(), Date.now() + WATCHDOG_SLACK_MS).catch(() => undefined);
          }
        });
        return await withDeadline(work, watchdog, () => new BrowserStalled());
      } catch (error) {
        return this.classify(error);
      }
    });
  }

  async close(): Promise<void> {
    await this.contexts.close();
  }

  /**
   * Adds the init script that counts a document's navigations (COUNT_NAVIGATIONS_SOURCE) once per
   * context rather than per page: contexts live across loads, and every call is a browser round trip.
   */
  private countNavigationsIn(context: BrowserContext): Promise<void> {
    let added = this.navigationCounting.get(context);
    if (!added) {
      added = context.addInitScript(COUNT_NAVIGATIONS_SOURCE).then(() => undefined);
      this.navigationCounting.set(context, added);
      // A failure is not kept: the next load on this context tries again instead of failing on it too.
      added.catch(() => this.navigationCounting.delete(context));
    }
    return added;
  }

  private async loadInPage(page: Page, request: PageLoadRequest): Promise<PageLoadResult> {
    const deadline = Date.now() + this.options.navigationTimeoutMs;
    await applyIdentity(page, request);

    const pageHost = new URL(request.url).hostname;
    let documentsRequested = 0;
    await page.route('**/*', (route) => this.route(route, page, pageHost, () => ++documentsRequested <= this.maxDocumentsPerLoad));
    // The status that counts is the one of the document finally shown (after HTTP or script redirects).
    let lastDocument: Response | undefined;
    page.on('response', (response) => {
      if (isMainDocument(response.request(), page)) lastDocument = response;
    });
    const documents = new MainFrameDocuments(page, () => documentsRequested < this.maxDocumentsPerLoad);

    const firstDocument = await page.goto(request.url, { waitUntil: 'commit', timeout: remainingMs(deadline) });
    const html = await readSettledDocument(page, documents, deadline, this.loadGraceMs);
    const document = lastDocument ?? firstDocument;
    if (!document) return { kind: 'load-error', detail: `no response for ${request.url}` };
    return { kind: 'loaded', status: document.status(), html, finalUrl: page.url() };
  }

  private async route(route: Route, page: Page, pageHost: string, mayLoadDocument: () => boolean): Promise<void> {
    const request = route.request();
    try {
      if (isMainDocument(request, page)) {
        // 'aborted' cancels a navigation without committing an error page: the current document stays.
        if (!mayLoadDocument()) return await route.abort('aborted');
      } else if (this.blockedResourceTypes.has(request.resourceType())) {
        return await route.abort('blockedbyclient');
      }
      if (!this.isAllowedHost(request.url(), pageHost)) return await route.abort('blockedbyclient');
      await route.continue();
    } catch {
      // The page closed while the request was in flight: nothing left to route.
    }
  }

  private isAllowedHost(url: string, pageHost: string): boolean {
    let host: string;
    try {
      host = new URL(url).hostname;
    } catch {
      return false;
    }
    if (host === pageHost) return true;
    return this.options.subresourceHosts.some((allowed) => host === allowed || host.endsWith(`.${allowed}`));
  }

  private classify(error: unknown): PageLoadResult {
    const detail = firstLine(error);
    if (!this.browser.isConnected()) return { kind: 'browser-closed', detail };
    if (error instanceof BrowserStalled) {
      return {
        kind: 'timeout',
        detail: `the browser did not answer within ${this.options.navigationTimeoutMs + WATCHDOG_SLACK_MS} ms`,
        stalled: true,
      };
    }
    if (error instanceof errors.TimeoutError || error instanceof DeadlineExceeded) {
      return { kind: 'timeout', detail: `no readable page within ${this.options.navigationTimeoutMs} ms` };
    }
    const networkError = /net::ERR_[A-Z_]+/.exec(detail);
    return { kind: 'load-error', detail: networkError ? networkError[0] : detail };
  }
}

/**
 * Per-page user agent, language and time zone through the DevTools protocol: Playwright only sets
 * them per context, and contexts are per egress. Covers the headers and what scripts see alike.
 */
async function applyIdentity(page: Page, request: PageLoadRequest): Promise<void> {
  const session = await page.context().newCDPSession(page);
  await session.send('Emulation.setUserAgentOverride', {
    userAgent: request.userAgent,
    acceptLanguage: request.acceptLanguage,
    platform: navigatorPlatform(request.userAgent),
  });
  await session.send('Emulation.setLocaleOverride', { locale: request.locale });
  if (request.timeZone) {
    // A zone this Chromium does not know (its ICU older than Node's) keeps the machine's clock:
    // a page that looks a little less local is better than a check lost over it.
    await session.send('Emulation.setTimezoneOverride', { timezoneId: request.timeZone }).catch(() => undefined);
  }
}

function isMainDocument(request: Request, page: Page): boolean {
  if (!request.isNavigationRequest()) return false;
  try {
    return request.frame() === page.mainFrame();
  } catch {
    return false; // service-worker requests have no frame
  }
}

class DeadlineExceeded extends Error {}

/** The watchdog's deadline passed: a call to the browser itself did not come back. */
class BrowserStalled extends Error {}

/**
 * Where the page keeps its count of navigations started (see COUNT_NAVIGATIONS_SOURCE): a symbol
 * key, not enumerable, so the page's own scripts do not meet it in `Object.keys(window)` or `for…in`.
 * A script that lists the window's symbols does see it, so its name is random for each process: a
 * fixed name would be a mark by which a search engine could tell this scraper from a browser.
 */
const NAVIGATIONS_STARTED_KEY = randomBytes(12).toString('base64url');

/**
 * Init script, run in every document before the page's own scripts: counts the navigations to
 * another document that this document has started (`location.replace`, links, forms), less those
 * cancelled before they left the page. The Navigation API's `navigate` event fires synchronously
 * when one starts, so the count is right by the time the page function reads it, whereas the
 * request only reaches Node a little later. Without the Navigation API the count stays 0 (the
 * loader then behaves as if no page navigated).
 */
const COUNT_NAVIGATIONS_SOURCE = `(() => {
  if (typeof navigation === 'undefined') return;
  let started = 0;
  navigation.addEventListener('navigate', (event) => {
    if (event.destination.sameDocument) return;
    started += 1;
    event.signal.addEventListener('abort', () => { started -= 1; }, { once: true });
  });
  Object.defineProperty(window, Symbol.for(${JSON.stringify(NAVIGATIONS_STARTED_KEY)}), { get: () => started });
})()`;

/** One read of the main frame's document. */
interface DocumentRead {
  html: string;
  /** Navigations to another document this document had started when it was read. */
  navigationsStarted: number;
  /** `MainFrameDocuments.commits` during the read: which document was read. */
  commit: number;
}

/**
 * Page-side function, kept as source text so no transpiler can rewrite it: waits until the DOM is
 * parsed, then for `load` or `graceMs` (late scripts such as the AI Overview), and returns the
 * document as HTML with its count of navigations started. Event-driven in one round trip, where
 * Playwright's polling waits cost more than the page itself on a busy machine.
 * It waits on `readyState` rather than DOMContentLoaded alone because a script navigation started
 * while the page is being parsed stops the parser: Chromium then turns the document `complete`
 * with neither DOMContentLoaded nor `load`. `load` runs its handlers in the task that makes the
 * document complete, so the next task sees what they did.
 */
const SETTLED_HTML_SOURCE = `async (graceMs) => {
  const untilReadyState = (reached) =>
    new Promise((resolve) => {
      if (reached()) return resolve();
      const check = () => {
        if (!reached()) return;
        document.removeEventListener('readystatechange', check);
        setTimeout(resolve, 0);
      };
      document.addEventListener('readystatechange', check);
    });
  await untilReadyState(() => document.readyState !== 'loading');
  if (document.readyState !== 'complete') {
    await Promise.race([untilReadyState(() => document.readyState === 'complete'), new Promise((resolve) => setTimeout(resolve, graceMs))]);
  }
  const doctype = document.doctype ? new XMLSerializer().serializeToString(document.doctype) : '';
  const navigationsStarted = window[Symbol.for(${JSON.stringify(NAVIGATIONS_STARTED_KEY)})] ?? 0;
  return { html: doctype + document.documentElement.outerHTML, navigationsStarted };
}`;

/**
 * How long a navigation the page says it started may take to reach the network before the page is
 * taken to stay. Only pages that navigate wait for it, and only if no request shows up at all (a
 * navigation the page intercepted, or one Chromium refused before sending it).
 */
const NAVIGATION_START_GRACE_MS = 2_000;

/**
 * The settled document's HTML within the deadline. A script navigation (Google's JavaScript
 * challenge) replaces the document being read; then the next one is read, until the deadline.
 * A document that has started a navigation is only returned once that navigation is known to have
 * ended without a new document (refused beyond `maxDocumentsPerLoad`, a 204…): the page function
 * can see the old document settled while the next one is still on its way.
 */
async function readSettledDocument(page: Page, documents: MainFrameDocuments, deadline: number, loadGraceMs: number): Promise<string> {
  for (;;) {
    const read = await readDocument(page, documents, deadline, loadGraceMs);
    if (!read) continue; // replaced while being read
    if (read.navigationsStarted === 0) return read.html;
    if ((await documents.navigationOutcome(read, deadline)) === 'stays') return read.html;
  }
}

/** One read of the current document, or undefined if a navigation replaced it meanwhile. */
async function readDocument(
  page: Page,
  documents: MainFrameDocuments,
  deadline: number,
  loadGraceMs: number,
): Promise<DocumentRead | undefined> {
  const graceMs = Math.max(0, Math.min(loadGraceMs, deadline - Date.now() - 250));
  const commit = documents.commits;
  try {
    const read = await withDeadline(page.evaluate<Omit<DocumentRead, 'commit'>>(`(${SETTLED_HTML_SOURCE})(${graceMs})`), deadline);
    // After a commit during the read, which document answered is unknown; that matters only for a
    // document that navigates, whose navigations are matched with the requests of its commit.
    if (read.navigationsStarted > 0 && documents.commits !== commit) return undefined;
    return { ...read, commit };
  } catch (error) {
    const swapped = /Execution context was destroyed|navigat/i.test(firstLine(error));
    if (!swapped || deadline - Date.now() <= 0) throw error;
    return undefined;
  }
}

/**
 * What Node sees of the main frame's documents: the commits, the navigation requests each document
 * made while it was the current one, and the requests still under way. Together with the count the
 * page gives, that tells whether a document that started a navigation will be replaced.
 */
class MainFrameDocuments {
  /** Main-frame navigations committed so far; the current document is the one of the last. */
  commits = 0;
  private readonly navigationsSentBy = new Map<number, number>();
  private readonly underWay = new Set<Request>();
  private wake: (() => void) | undefined;

  constructor(
    page: Page,
    /** Whether one more document may be loaded; beyond the limit the route refuses it. */
    private readonly mayLoadAnotherDocument: () => boolean,
  ) {
    // Same-document navigations (history.pushState) count too: Playwright does not tell them apart.
    // They only make a navigating document be read again, or wait NAVIGATION_START_GRACE_MS when one
    // comes between its navigation's start and the read.
    page.on('framenavigated', (frame) => {
      if (frame !== page.mainFrame()) return;
      this.commits += 1;
      this.changed();
    });
    page.on('request', (request) => {
      if (!isMainDocument(request, page)) return;
      const redirectedFrom = request.redirectedFrom();
      if (redirectedFrom) this.underWay.delete(redirectedFrom);
      else this.navigationsSentBy.set(this.commits, (this.navigationsSentBy.get(this.commits) ?? 0) + 1);
      this.underWay.add(request);
      this.changed();
    });
    // A redirect response finishes its request, but the navigation goes on with the next one.
    page.on('requestfinished', (request) => {
      const status = request.existingResponse()?.status() ?? 0;
      if (status >= 300 && status < 400) return;
      if (this.underWay.delete(request)) this.changed();
    });
    page.on('requestfailed', (request) => {
      if (this.underWay.delete(request)) this.changed();
    });
  }

  /**
   * Waits, within the deadline, until it is known whether the navigations started by the document
   * read will replace it: 'replaced' when a new document has committed, 'stays' when they all ended
   * without one (or none can reach the network any more).
   */
  async navigationOutcome(read: DocumentRead, deadline: number): Promise<'replaced' | 'stays'> {
    const startGraceEnds = Date.now() + NAVIGATION_START_GRACE_MS;
    for (;;) {
      const outcome = this.outcomeSoFar(read, Date.now() >= startGraceEnds);
      if (outcome) return outcome;
      if (Date.now() >= deadline) throw new DeadlineExceeded('deadline exceeded');
      await this.nextChange(Date.now() < startGraceEnds ? Math.min(deadline, startGraceEnds) : deadline);
    }
  }

  private outcomeSoFar(read: DocumentRead, startGraceOver: boolean): 'replaced' | 'stays' | undefined {
    if (this.commits !== read.commit) return 'replaced';
    // A document request under way may still commit, whether from this document or an earlier one.
    if (this.underWay.size > 0) return undefined;
    // Nothing under way, and any further document request would be refused: this document stays.
    if (!this.mayLoadAnotherDocument()) return 'stays';
    const sent = this.navigationsSentBy.get(read.commit) ?? 0;
    if (sent >= read.navigationsStarted || startGraceOver) return 'stays';
    return undefined; // started in the page, not yet seen on the network
  }

  /** Resolves at the next commit or change of the requests under way, or at `until`. */
  private nextChange(until: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => this.wake?.(), remainingMs(until));
      this.wake = () => {
        this.wake = undefined;
        clearTimeout(timer);
        resolve();
      };
    });
  }

  private changed(): void {
    this.wake?.();
  }
}

function withDeadline<T>(
  work: Promise<T>,
  deadline: number,
  expiry: () => Error = () => new DeadlineExceeded('deadline exceeded'),
): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(expiry()), remainingMs(deadline));
  });
  return Promise.race([work, expired]).finally(() => clearTimeout(timer));
}

function remainingMs(deadline: number): number {
  return Math.max(1, deadline - Date.now());
}

function firstLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split('\n')[0];
}
