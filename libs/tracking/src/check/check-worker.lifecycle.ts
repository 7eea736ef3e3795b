import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import type { Browser } from 'playwright-core';
import type { EventStore } from '@rank/event-store/event-store.port';
import { ChromiumChoice, ChromiumPathError, chooseChromium, closeChromium, describeChromiumChoice, launchChromium } from '@rank/serp/browser/chromium';
import { createSerpFetcher, SerpFetcher, type SerpFetchOutcome, type SerpRequest } from '@rank/serp/fetcher';
import { parseSerpPage } from '@rank/serp/parser';
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
  private browser: Promise<Browser> | undefined;
  private fetcher: Promise<SerpFetcher> | undefined;
  /** Why the last browser launch failed, until one succeeds (for /ready). */
  private launchError: string | undefined;
  private readonly reports: ReturnType<typeof checkReports>;

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
    try {
      this.chromium = chooseChromium(this.config.env);
    } catch (error) {
      // A CHROMIUM_PATH that points at nothing stops the start, like any other bad variable.
      throw error instanceof ChromiumPathError ? new ConfigError([error.message]) : error;
    }
    this.logger.log(describeChromiumChoice(this.chromium));
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
    if (this.fetcher) await this.fetcher.then((fetcher) => fetcher.close()).catch(() => undefined);
    if (this.browser) await this.browser.then((browser) => closeChromium(browser)).catch(() => undefined);
  }

  /**
   * For /ready, and never launching one: the browser chosen at start, whether one was launched and is
   * still connected, or why the last launch failed.
   */
  async browserState(): Promise<{ ok: boolean; launched: boolean; source?: string; path?: string; version?: string; error?: string }> {
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
   * installed meanwhile).
   */
  private async fetchSerp(request: SerpRequest): Promise<SerpFetchOutcome> {
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
      this.browser = launchChromium({ choice: this.chromium, env: this.config.env });
      const fetcher = this.browser.then((browser) => {
        this.logger.log(`Browser started: ${browser.version()}`);
        this.launchError = undefined;
        return createSerpFetcher({ browser, config: this.config.scraper, parse: parseSerpPage, observer: this.reports.pages });
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
