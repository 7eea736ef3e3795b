import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import type { EventStore } from '@rank/event-store/event-store.port';
import { BrowserThread } from '@rank/serp/browser/browser-thread';
import { ChromiumChoice, ChromiumPathError, chooseChromium, describeChromiumChoice } from '@rank/serp/browser/chromium';
import { createSerpFetcher, SerpFetcher, type SerpFetchOutcome, type SerpRequest } from '@rank/serp/fetcher';
import { parseSerpPage } from '@rank/serp/parser';
import { FailoverSerpSource, fetchApiSource, type SerpSource, type SerpSourceName } from '@rank/serp/sources';
import { DataForSeoSerpSource } from '@rank/providers/dataforseo/serp.client';
import { SerpApiSource } from '@rank/providers/serpapi/serp.client';
import { CheckWorker } from './check-worker';
import { ConfigError, type AppConfig } from '@rank/platform/config/app-config';
import { APP_CONFIG, CLOCK, Clock, EVENT_STORE } from '@rank/platform/tokens';
import { Metrics } from '@rank/platform/metrics/metrics';
import { checkReports } from './check-reports';
import { CreditRefunds } from '../refund/credit-refunds';
import { ProjectsToCheck } from './projects-to-check';

/**
 * Runs the scraper's check worker in this process when its ROLES include `scraper` (standalone
 * does). The browser is chosen (and logged) at start; it starts with the first check, not with the service.
 */
@Injectable()
export class CheckWorkerLifecycle implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Scraper');
  private worker: CheckWorker | undefined;
  private chromium: ChromiumChoice | undefined;
  /** Chromium in a worker thread, so that Playwright's per-promise hook stays out of the API's thread. */
  private browser: Promise<BrowserThread> | undefined;
  private fetcher: Promise<SerpFetcher> | undefined;
  /** Why the last browser launch failed, until one succeeds (for /ready). */
  private launchError: string | undefined;
  private readonly reports: ReturnType<typeof checkReports>;
  /** The SERP sources in SERP_SOURCES order, each tried when the one before failed. */
  private sources: FailoverSerpSource | undefined;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly projects: ProjectsToCheck,
    private readonly refunds: CreditRefunds,
    metrics: Metrics,
  ) {
    this.reports = checkReports(metrics, this.logger);
  }

  /** The running worker (for tests that wait for it to be idle). */
  get current(): CheckWorker | undefined {
    return this.worker;
  }

  onApplicationBootstrap(): void {
    const order = this.config.serpSources.order;
    if (order.includes('browser')) {
      try {
        this.chromium = chooseChromium(this.config.env);
      } catch (error) {
        // A CHROMIUM_PATH that points at nothing stops the start, like any other bad variable.
        throw error instanceof ChromiumPathError ? new ConfigError([error.message]) : error;
      }
      this.logger.log(describeChromiumChoice(this.chromium));
    }
    this.sources = new FailoverSerpSource(order.map((name) => this.sourceNamed(name)));
    if (order.length > 1 || order[0] !== 'browser') this.logger.log(`Result pages come from ${order.join(', then ')} (SERP_SOURCES)`);
    this.worker = new CheckWorker(
      {
        store: this.store,
        loadProject: (projectId) => this.projects.load(projectId),
        projectStillExists: (accountId, projectId) => this.projects.stillExists(accountId, projectId),
        fetchSerp: (request) => this.fetchSerp(request),
        refund: (refund) => this.refunds.pay(refund),
        now: () => this.clock.now(),
        log: (message) => this.logger.warn(message),
        report: this.reports.checks,
      },
      { concurrency: this.config.scraperChecksAtOnce },
    );
    this.worker.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.worker?.stop();
    await this.sources?.close();
    if (this.fetcher) await this.fetcher.then((fetcher) => fetcher.close()).catch(() => undefined);
    if (this.browser) await this.browser.then((browser) => browser.close()).catch(() => undefined);
  }

  /**
   * For /ready, and never launching one: the browser chosen at start, whether one was launched and is
   * still connected, or why the last launch failed.
   */
  async browserState(): Promise<{ ok: boolean; launched: boolean; source?: string; path?: string; version?: string; error?: string }> {
    // Without `browser` in SERP_SOURCES no browser is needed, so none missing makes the scraper unready.
    if (!this.config.serpSources.order.includes('browser')) return { ok: true, launched: false, source: 'not used (SERP_SOURCES)' };
    const chosen = { source: this.chromium?.source, path: this.chromium?.path };
    if (this.launchError !== undefined) return { ok: false, launched: false, ...chosen, error: this.launchError };
    if (!this.browser) return { ok: this.chromium !== undefined, launched: false, ...chosen };
    // A launch under way is not waited for: the probe answers now.
    const launching = new Promise<'launching'>((resolve) => setImmediate(() => resolve('launching')));
    const browser = await Promise.race([this.browser.catch(() => undefined), launching]);
    if (browser === 'launching') return { ok: true, launched: false, ...chosen };
    if (!browser?.isConnected()) return { ok: false, launched: true, ...chosen, error: 'the browser is no longer connected' };
    return { ok: true, launched: true, ...chosen, version: browser.version() };
  }

  /**
   * A browser that cannot start fails the check at once, with the launch error (which says how to
   * fix it) as its reason: it is permanent, so throwing it would only have the check retried four
   * times against the same machine. The next check tries to launch again (a browser may have been
   * installed meanwhile). Live serp-checks (libs/research) load their page through here too, so they
   * share the browser, its egress pool and its pacing with the scheduled checks.
   */
  async fetchSerp(request: SerpRequest): Promise<SerpFetchOutcome> {
    if (!this.sources) throw new Error('the scraper has not started');
    return this.sources.fetchSerp(request);
  }

  private sourceNamed(name: SerpSourceName): SerpSource {
    const { serpSources, scraper } = this.config;
    switch (name) {
      case 'browser':
        // The browser and its fetcher are closed with the service (they start with the first check).
        return { name, fetchSerp: (request) => this.browserFetch(request), close: async () => undefined };
      case 'fetch-api':
        return fetchApiSource({
          template: serpSources.fetchUrlTemplate!,
          config: scraper,
          parse: parseSerpPage,
          observer: this.reports.pages,
          now: () => this.clock.now().getTime(),
        });
      case 'dataforseo':
        return new DataForSeoSerpSource({ ...serpSources.dataForSeo!, timeoutMs: serpSources.apiTimeoutMs });
      case 'serpapi':
        return new SerpApiSource({ ...serpSources.serpApi!, timeoutMs: serpSources.apiTimeoutMs });
      default: {
        const unknown: never = name;
        throw new Error(`unknown SERP source ${String(unknown)}`);
      }
    }
  }

  private async browserFetch(request: SerpRequest): Promise<SerpFetchOutcome> {
    let fetcher: SerpFetcher;
    try {
      fetcher = await this.serpFetcher();
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      this.logger.error(reason);
      this.launchError = reason;
      return { kind: 'failed', reason, pagesRead: 0, cause: 'browser_unavailable' };
    }
    return fetcher.fetchSerp(request);
  }

  private serpFetcher(): Promise<SerpFetcher> {
    if (!this.fetcher) {
      this.browser = BrowserThread.launch({ choice: this.chromium, env: this.config.env });
      const fetcher = this.browser.then((browser) => {
        this.logger.log(`Browser started: ${browser.version()}`);
        this.launchError = undefined;
        // The service's clock decides when a blocked egress is back, so that a retry's time and the rest agree.
        return createSerpFetcher({
          browser,
          config: this.config.scraper,
          parse: parseSerpPage,
          observer: this.reports.pages,
          now: () => this.clock.now().getTime(),
        });
      });
      this.fetcher = fetcher;
      fetcher.catch(() => {
        if (this.fetcher !== fetcher) return;
        this.fetcher = undefined;
        this.browser = undefined;
      });
    }
    return this.fetcher;
  }
}
