import type { AiOverviewSource, OrganicResult, PageSource, SerpPage } from '../parser/serp-page';
import { retryDelayMs } from './backoff';
import { EgressPool, type Egress } from './egress-pool';
import { EgressPacer } from './egress-pacer';
import type { PageLoader, PageLoadResult } from './page-loader';
import { acceptLanguages, browserLocale, buildSearchUrl, RESULTS_PER_PAGE, type SearchTarget } from './search-url';
import { browserTimeZone } from './time-zone';
import type { SerpFetcherConfig } from './serp-fetcher-config';
import type { SerpSourceName } from '../sources/serp-source';

export interface SerpRequest extends SearchTarget {
  /** How many organic results to read: Google's top 50 or top 100, or 10 for the first page only (a live serp-check). */
  depth: 10 | 50 | 100;
}

export type SerpFetchOutcome =
  /** Every page up to `depth` (or to the last page) was read; positions run 1..n across pages. */
  | { kind: 'success'; organic: OrganicResult[]; aiOverview: AiOverviewSource[]; pagesRead: number; source?: SerpSourceName }
  /**
   * The check has no trustworthy answer; `pagesRead` counts pages read before the failure. `cause` is
   * the reason's kind, for metrics; `egress` the way out it last went (`direct` or a proxy's host:port).
   * `backAt` (epoch ms) is when a blocked or resting egress may be asked again, when that is known.
   */
  | {
      kind: 'failed';
      reason: string;
      pagesRead: number;
      cause?: SerpFailureCause;
      egress?: string;
      backAt?: number;
      /** The source that failed (the first one, when several were tried). */
      source?: SerpSourceName;
      /** With several sources: how each one failed, in order. */
      sourceFailures?: SourceFailure[];
    };

export interface SourceFailure {
  source: SerpSourceName;
  cause?: SerpFailureCause;
  egress?: string;
  reason: string;
}

/** A failure's kind: few values, unlike the reason's words, so that a metric can count by it. */
export type SerpFailureCause =
  | 'blocked'
  | 'egress_resting'
  | 'timeout'
  | 'load_error'
  | 'http_error'
  | 'consent'
  | 'unrecognised_page'
  | 'parser_error'
  | 'browser_unavailable'
  /** Browsers kept going away before loading a page, so none is launched before `backAt`. */
  | 'browser_resting'
  /** A SERP API answered with something we cannot read. */
  | 'malformed_answer'
  /** A SERP API refused the request (a bad key, no credit left). */
  | 'upstream_refused'
  /** Google's pages held too few results to reach the depth within the pages read. */
  | 'short_pages';

/** What the fetcher reports as it goes, for metrics; `egress` is `direct` or a proxy's host:port, never credentials. */
export interface SerpFetchObserver {
  /** One page load, whatever came of it (`loaded`, `timeout`, `load-error`, `browser-closed`). */
  pageLoaded(egress: string, outcome: string, seconds: number): void;
  /** Google blocked a page (captcha, 403, 429). */
  blocked(egress: string): void;
  /** An egress starts its rest after a block, until `until` (epoch ms): said once per block, not per failed check. */
  resting?(egress: string, until: number, why: string): void;
}

/**
 * A check no browser could serve, in one wording whether that was known before its first page or
 * found on a load. While the browser's launches rest (`backAt`), the check may come back when they end.
 */
export function browserFailure(
  detail: string,
  backAt?: number,
): { kind: 'failed'; reason: string; cause: 'browser_unavailable' | 'browser_resting'; backAt?: number } {
  const reason = `browser unavailable (${detail})`;
  if (backAt !== undefined) return { kind: 'failed', reason, cause: 'browser_resting', backAt };
  return { kind: 'failed', reason, cause: 'browser_unavailable' };
}

/**
 * The SERP parser's signature (`parseSerpPage` in scraper/src/serp-parser); `source.url` is the URL
 * the browser ended on (a redirect to Google's consent service shows there).
 */
export type ParseSerpPage = (html: string, source?: PageSource) => SerpPage;

export interface SerpFetcherDependencies {
  loader: PageLoader;
  parse: ParseSerpPage;
  /** User agents used in turn; must not be empty. */
  userAgents: readonly string[];
  /** Injected for tests: the clock that decides when a blocked egress is back. */
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
  observer?: SerpFetchObserver;
  /** The egress used without proxies (default: the direct connection); a scraping API names itself here. */
  directEgress?: Egress;
}

type FetcherSettings = Pick<
  SerpFetcherConfig,
  'baseUrl' | 'maxAttempts' | 'retryBaseDelayMs' | 'retryMaxDelayMs' | 'proxies' | 'blockRestMs'
> &
  Partial<Pick<SerpFetcherConfig, 'minIntervalMs' | 'hourlyBudget'>>;

/**
 * Google shows 7 to 10 organic results a page, so the depth takes more pages than depth/10; paging
 * goes on while Google offers a next page, as far as pages of 4 results would need. A list still
 * short of the depth there fails the check: "not ranking" would be said of places never read.
 */
const FEWEST_RESULTS_A_PAGE = 4;

/** Result of reading one page, after retries; a block never gets here as a page. */
type PageRead =
  | { kind: 'read'; page: Exclude<SerpPage, { kind: 'blocked' }>; egress?: string }
  | { kind: 'failed'; reason: string; cause: SerpFailureCause; egress?: string; backAt?: number };

/** State shared by the pages of one check. */
interface CheckState {
  /** A block may be retried once per check, on another proxy, never on the same one. */
  blockRetryLeft: boolean;
}

/**
 * Reads Google's top `depth` organic results for a keyword: pages through `start=0,10,20…`,
 * parses each page, and merges them. Any page that cannot be read fails the whole check: a
 * partial list would be stored as "not ranking" for everything past it.
 */
export class SerpFetcher {
  private readonly egresses: EgressPool;
  private readonly pacer: EgressPacer;
  private readonly now: () => number;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly random: () => number;
  private userAgentTurn = 0;

  constructor(
    private readonly settings: FetcherSettings,
    private readonly deps: SerpFetcherDependencies,
  ) {
    if (deps.userAgents.length === 0) throw new Error('SerpFetcher needs at least one user agent');
    this.now = deps.now ?? Date.now;
    this.sleep = deps.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
    this.random = deps.random ?? Math.random;
    this.egresses = new EgressPool(settings.proxies, settings.blockRestMs, this.now, deps.directEgress);
    this.pacer = new EgressPacer(
      { minIntervalMs: settings.minIntervalMs ?? 0, hourlyBudget: settings.hourlyBudget ?? 0 },
      this.now,
      this.random,
    );
  }

  /** The egresses' names (`direct`, or proxies' host:port), for a source that names where it went. */
  get egressNames(): string[] {
    return this.egresses.all().map(nameOf);
  }

  async fetchSerp(request: SerpRequest): Promise<SerpFetchOutcome> {
    assertValidRequest(request);
    const organic: OrganicResult[] = [];
    const seenUrls = new Set<string>();
    let aiOverview: AiOverviewSource[] = [];
    let pagesRead = 0;
    const check: CheckState = { blockRetryLeft: this.egresses.usesProxies };
    const success = (): SerpFetchOutcome => ({ kind: 'success', organic, aiOverview, pagesRead });

    const maxPages = Math.ceil(request.depth / FEWEST_RESULTS_A_PAGE);
    for (let pageIndex = 0; pageIndex < maxPages; pageIndex++) {
      const start = pageIndex * RESULTS_PER_PAGE;
      const where = `page ${pageIndex + 1} (start=${start})`;
      const read = await this.readPage(request, start, check);
      if (read.kind === 'failed')
        return {
          kind: 'failed',
          reason: `${where}: ${read.reason}`,
          pagesRead,
          cause: read.cause,
          egress: read.egress,
          backAt: read.backAt,
        };

      const page = read.page;
      switch (page.kind) {
        case 'unrecognised':
          return {
            kind: 'failed',
            reason: `${where}: not a result page we can read (${page.detail})`,
            pagesRead,
            cause: 'unrecognised_page',
            egress: read.egress,
          };
        case 'consent':
          // Not transient (the same page would come back) and not a block: no retry, no rest.
          return {
            kind: 'failed',
            reason: `${where}: Google showed its cookie-consent page instead of results (${page.detail})`,
            pagesRead,
            cause: 'consent',
            egress: read.egress,
          };
        case 'no-results':
          // On the first page: Google found nothing, a valid "not ranking". Later: the list ended.
          pagesRead++;
          return success();
        case 'results': {
          pagesRead++;
          if (pageIndex === 0) aiOverview = page.aiOverview;
          let added = 0;
          for (const result of page.organic) {
            if (organic.length >= request.depth) break;
            // Google repeats a result across pages when its ranking shifts between requests.
            if (seenUrls.has(result.url)) continue;
            seenUrls.add(result.url);
            organic.push({ ...result, position: organic.length + 1 });
            added++;
          }
          // A page that adds nothing new would only lead to more of the same.
          if (organic.length >= request.depth || !page.hasNextPage || added === 0) return success();
          break;
        }
        default:
          return assertNever(page);
      }
    }
    return {
      kind: 'failed',
      reason: `Google offered a next page after ${maxPages} pages holding ${organic.length} of the ${request.depth} results: its pages run too short to read them all`,
      pagesRead,
      cause: 'short_pages',
    };
  }

  async close(): Promise<void> {
    await this.deps.loader.close();
  }

  /** Loads and parses one page, retrying transient failures and, once per check, a block on another proxy. */
  private async readPage(request: SerpRequest, start: number, check: CheckState): Promise<PageRead> {
    const url = buildSearchUrl(this.settings.baseUrl, request, start);
    let transientFailures = 0;
    const blockedOn: string[] = [];
    // The searched country's proxies, when some are said to be there (EgressPool).
    const country = request.geoCode;
    for (;;) {
      const egress = this.egresses.next(country, (candidate) => this.pacer.hasBudget(candidate.id));
      if (!egress) {
        return {
          kind: 'failed',
          reason: this.describeNoEgress(country, blockedOn),
          cause: blockedOn.length > 0 ? 'blocked' : 'egress_resting',
          backAt: this.firstBack(country),
        };
      }

      const egressName = nameOf(egress);
      // Every load waits its egress's turn, retries and later pages of the check alike.
      const wait = this.pacer.reserve(egress.id);
      if (wait > 0) {
        await this.sleep(wait);
        // Another check may have been blocked on this egress while this one waited its turn:
        // a request now would only prolong the block, so the egress is chosen again.
        if (this.egresses.isResting(egress)) continue;
      }
      const startedAt = performance.now();
      const loaded = await this.deps.loader.load({
        url,
        egress,
        userAgent: this.nextUserAgent(),
        locale: browserLocale(request),
        acceptLanguage: acceptLanguages(request),
        timeZone: browserTimeZone(request.geoCode),
      });
      this.deps.observer?.pageLoaded(egressName, loaded.kind, (performance.now() - startedAt) / 1000);
      const verdict = this.judge(loaded);

      if (verdict.kind === 'transient') {
        transientFailures++;
        if (transientFailures >= this.settings.maxAttempts) {
          return {
            kind: 'failed',
            reason: `${verdict.reason}, after ${transientFailures} attempts`,
            cause: verdict.cause,
            egress: egressName,
          };
        }
        await this.sleep(retryDelayMs(transientFailures, this.settings.retryBaseDelayMs, this.settings.retryMaxDelayMs, this.random));
        continue;
      }
      if (verdict.kind === 'blocked') {
        this.deps.observer?.blocked(egressName);
        const restingUntil = this.egresses.rest(egress);
        this.deps.observer?.resting?.(egressName, restingUntil, verdict.reason);
        blockedOn.push(`${egress.label}: ${verdict.reason}`);
        // The blocked egress rests now, so any available one is another proxy.
        if (check.blockRetryLeft && this.egresses.availableCount(country) > 0) {
          check.blockRetryLeft = false;
          continue;
        }
        return {
          kind: 'failed',
          reason: describeBlocks(blockedOn, egress, restingUntil),
          cause: 'blocked',
          egress: egressName,
          backAt: this.firstBack(country),
        };
      }
      return { ...verdict, egress: egressName };
    }
  }

  private judge(
    loaded: PageLoadResult,
  ): PageRead | { kind: 'transient'; reason: string; cause: SerpFailureCause } | { kind: 'blocked'; reason: string } {
    switch (loaded.kind) {
      case 'timeout':
        return { kind: 'transient', reason: `timed out (${loaded.detail})`, cause: 'timeout' };
      case 'load-error':
        return { kind: 'transient', reason: `could not load the page (${loaded.detail})`, cause: 'load_error' };
      case 'browser-closed':
        return browserFailure(loaded.detail, loaded.backAt);
      case 'loaded':
        break;
      default:
        return assertNever(loaded);
    }
    const { status } = loaded;
    // 429 is Google's "unusual traffic" answer (the /sorry/ page); 403 is its harder refusal.
    if (status === 429 || status === 403) return { kind: 'blocked', reason: `HTTP ${status}` };
    if (status >= 500) return { kind: 'transient', reason: `HTTP ${status} from Google`, cause: 'http_error' };
    if (status < 200 || status >= 300) return { kind: 'failed', reason: `HTTP ${status} from Google`, cause: 'http_error' };

    let page: SerpPage;
    try {
      page = this.deps.parse(loaded.html, { url: loaded.finalUrl });
    } catch (error) {
      return {
        kind: 'failed',
        reason: `the parser failed: ${error instanceof Error ? error.message : String(error)}`,
        cause: 'parser_error',
      };
    }
    if (page.kind === 'blocked') return { kind: 'blocked', reason: `${page.reason} page` };
    return { kind: 'read', page };
  }

  /** When the first egress serving `country` may be asked again: the end of a rest, or of a spent hourly budget. */
  private firstBack(country: string): number | undefined {
    const serving = this.egresses.all(country);
    const times = serving
      .map((egress) => (this.egresses.isResting(egress) ? this.egresses.restEnd(egress) : this.pacer.budgetBackAt(egress.id)))
      .filter((time): time is number => time !== undefined);
    return times.length === serving.length ? Math.min(...times) : undefined;
  }

  private describeNoEgress(country: string, blockedOn: string[]): string {
    const serving = this.egresses.all(country);
    const anyResting = serving.some((egress) => this.egresses.isResting(egress));
    if (!anyResting && blockedOn.length === 0) {
      // Nothing rests: every egress has spent its hourly budget.
      const backs = serving.map((egress) => this.pacer.budgetBackAt(egress.id) ?? this.now());
      return `every egress has spent its hourly budget of requests; the first may ask again at ${new Date(Math.min(...backs)).toISOString()}`;
    }
    const back = this.egresses.firstReturn(country);
    const backAt = back === undefined ? '' : new Date(back).toISOString();
    const upper = country.toUpperCase();
    const where = serving.every((egress) => egress.proxy?.country === upper) ? ` in ${upper}` : '';
    const resting = !this.egresses.usesProxies
      ? `the ${serving[0].label} is resting after Google blocked it${backAt && `; it is back at ${backAt}`}`
      : serving.length === 1
        ? `the one proxy${where} is resting after Google blocked it${backAt && `; it is back at ${backAt}`}`
        : `all ${serving.length} proxies${where} are resting after Google blocked them${backAt && `; the first is back at ${backAt}`}`;
    return blockedOn.length > 0 ? `${resting} (blocked just now: ${blockedOn.join('; ')})` : resting;
  }

  private nextUserAgent(): string {
    const agents = this.deps.userAgents;
    const agent = agents[this.userAgentTurn % agents.length];
    this.userAgentTurn++;
    return agent;
  }
}

/** An egress as metrics and logs name it: `direct`, or the proxy's host:port (never its credentials). */
const nameOf = (egress: Egress): string => egress.proxy?.label ?? egress.id;

function describeBlocks(blockedOn: string[], last: Egress, restingUntil: number): string {
  const resting = `${last.label} resting until ${new Date(restingUntil).toISOString()}`;
  return `blocked by Google (${blockedOn.join('; ')}); ${resting}`;
}

function assertValidRequest(request: SerpRequest): void {
  if (request.keyword.trim().length === 0) throw new TypeError('SerpRequest.keyword must not be empty');
  if (![10, 50, 100].includes(request.depth)) throw new TypeError(`SerpRequest.depth must be 10, 50 or 100, got ${String(request.depth)}`);
  if (!/^[A-Za-z]{2}$/.test(request.geoCode)) throw new TypeError(`SerpRequest.geoCode must be two letters, got "${request.geoCode}"`);
  if (!/^[A-Za-z]{2,3}([-_][A-Za-z0-9]{2,8})?$/.test(request.langCode)) {
    throw new TypeError(`SerpRequest.langCode must look like "en" or "pt-BR", got "${request.langCode}"`);
  }
}

function assertNever(value: never): never {
  throw new Error(`Unexpected value: ${JSON.stringify(value)}`);
}
