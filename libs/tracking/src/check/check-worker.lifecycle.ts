import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import type { Browser } from 'playwright-core';
import type { EventStore } from '@rank/event-store/event-store.port';
import { closeChromium, launchChromium } from '@rank/serp/browser/chromium';
import { createSerpFetcher, SerpFetcher } from '@rank/serp/fetcher';
import { parseSerpPage } from '@rank/serp/parser';
import { CheckWorker } from './check-worker';
import type { AppConfig } from '@rank/platform/config/app-config';
import { APP_CONFIG, CLOCK, Clock, EVENT_STORE } from '@rank/platform/tokens';
import { CreditRefunds } from '../refund/credit-refunds';
import { ProjectsToCheck } from './projects-to-check';

/**
 * Runs the scraper's check worker in this process when its ROLES include `scraper` (standalone
 * does). Chromium starts with the first check, not with the service.
 */
@Injectable()
export class CheckWorkerLifecycle implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Scraper');
  private worker: CheckWorker | undefined;
  private browser: Promise<Browser> | undefined;
  private fetcher: Promise<SerpFetcher> | undefined;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly projects: ProjectsToCheck,
    private readonly refunds: CreditRefunds,
  ) {}

  /** The running worker (for tests that wait for it to be idle). */
  get current(): CheckWorker | undefined {
    return this.worker;
  }

  onApplicationBootstrap(): void {
    this.worker = new CheckWorker(
      {
        store: this.store,
        loadProject: (projectId) => this.projects.load(projectId),
        projectStillExists: (accountId, projectId) => this.projects.stillExists(accountId, projectId),
        fetchSerp: async (request) => (await this.serpFetcher()).fetchSerp(request),
        refund: (refund) => this.refunds.pay(refund),
        now: () => this.clock.now(),
        log: (message) => this.logger.warn(message),
      },
      { concurrency: this.config.scraperChecksAtOnce },
    );
    this.worker.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.worker?.stop();
    if (this.fetcher) await (await this.fetcher).close().catch(() => undefined);
    if (this.browser) await closeChromium(await this.browser).catch(() => undefined);
  }

  private serpFetcher(): Promise<SerpFetcher> {
    this.fetcher ??= (async () => {
      this.browser ??= launchChromium({ env: this.config.env });
      return createSerpFetcher({ browser: await this.browser, config: this.config.scraper, parse: parseSerpPage });
    })();
    return this.fetcher;
  }
}
