import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import type { EventStore } from '@rank/event-store/event-store.port';
import { BrowserThread } from '@rank/serp/browser/browser-thread';
import { BrowserRestingError, describeRest, RelaunchingBrowser } from '@rank/serp/browser/relaunching-browser';
import { ChromiumChoice, ChromiumPathError, chooseChromium, describeChromiumChoice } from '@rank/serp/browser/chromium';
import { browserFailure, createSerpFetcher, SerpFetcher, type SerpFetchOutcome, type SerpRequest } from '@rank/serp/fetcher';
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
  /** Chromium in a worker thread (Playwright's per-promise hook stays out of the API's thread), launched again after a crash. */
  private browser: RelaunchingBrowser | undefined;
  private fetcher: SerpFetcher | undefined;
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
    private readonly metrics: Metrics,
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
      this.browser = this.relaunchingBrowser(this.chromium);
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
    await this.fetcher?.close().catch(() => undefined);
    await this.browser?.close().catch(() => undefined);
  }

  /**
   * For /ready, and never launching one: the browser chosen at start, whether one was launched and is
   * still connected, or why the last launch failed. A browser that went away is no failure: the next
   * check launches another (`relaunches` counts them, so a browser that keeps crashing shows). While
   * launches rest after browsers kept going away before loading a page, the part is not ready.
   */
  browserState(): {
    ok: boolean;
    launched: boolean;
    source?: string;
    path?: string;
    version?: string;
    relaunches?: number;
    error?: string;
  } {
    // Without `browser` in SERP_SOURCES no browser is needed, so none missing makes the scraper unready.
    if (!this.browser) return { ok: true, launched: false, source: 'not used (SERP_SOURCES)' };
    const chosen = { source: this.chromium?.source, path: this.chromium?.path };
    const relaunches = this.browser.relaunches > 0 ? { relaunches: this.browser.relaunches } : {};
    if (this.launchError !== undefined) return { ok: false, launched: false, ...chosen, ...relaunches, error: this.launchError };
    const state = this.browser.state();
    if (state.kind === 'resting') return { ok: false, launched: false, ...chosen, ...relaunches, error: describeRest(state) };
    // Not launched yet, launching, or gone since (the next check launches another): ready all the same.
    if (state.kind !== 'running') return { ok: true, launched: false, ...chosen, ...relaunches };
    return { ok: true, launched: true, ...chosen, version: state.browser.version(), ...relaunches };
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
      // The same failure as a load that finds no browser; while launches rest, the check comes back once they may start again.
      const backAt = error instanceof BrowserRestingError ? error.backAt : undefined;
      return { ...browserFailure(error instanceof Error ? error.message : String(error), backAt), pagesRead: 0 };
    }
    return fetcher.fetchSerp(request);
  }

  /** The fetcher, once a browser runs; one for the service's life, whichever browser it loads on. */
  private async serpFetcher(): Promise<SerpFetcher> {
    const browser = this.browser!;
    await browser.running();
    // The service's clock decides when a blocked egress is back, so that a retry's time and the rest agree.
    this.fetcher ??= createSerpFetcher({
      browser,
      config: this.config.scraper,
      parse: parseSerpPage,
      observer: this.reports.pages,
      now: () => this.clock.now().getTime(),
    });
    return this.fetcher;
  }

  private relaunchingBrowser(chromium: ChromiumChoice): RelaunchingBrowser {
    return new RelaunchingBrowser(
      () => BrowserThread.launch({ choice: chromium, env: this.config.env }),
      {
        launched: (browser, relaunch) => {
          this.launchError = undefined;
          this.metrics.browserLaunches.inc({ outcome: 'started', relaunch: String(relaunch) });
          this.logger.log(
            relaunch
              ? `Browser started again, the last one having gone away: ${browser.version()}`
              : `Browser started: ${browser.version()}`,
          );
        },
        launchFailed: (error, relaunch) => {
          this.launchError = error.message;
          this.metrics.browserLaunches.inc({ outcome: 'failed', relaunch: String(relaunch) });
          this.logger.error(error.message);
        },
        stalled: (why) => this.logger.error(`${why}: it is closed, and the next check launches another`),
        resting: (until, why) => {
          const at = new Date(until).toISOString();
          this.logger.error(`${why}: no browser is launched before ${at}, when the scheduled checks that met this are tried again`);
        },
      },
      () => this.clock.now().getTime(),
    );
  }
}
