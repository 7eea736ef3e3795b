import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import type { Browser } from 'playwright-core';
import { findProject } from '../../../../../libs/domain/src/projects/workspace';
import type { EventStore } from '../../../../../libs/event-store/src/event-store.port';
import { closeChromium, launchChromium } from '../../../../../scraper/src/browser/chromium';
import { createSerpFetcher, SerpFetcher } from '../../../../../scraper/src/serp-fetcher';
import { parseSerpPage } from '../../../../../scraper/src/serp-parser';
import { CheckWorker, ProjectToCheck } from '../../../../../scraper/src/worker/check-worker';
import { AccountRepository } from '../../accounts/account.repository';
import type { AppConfig } from '../../config/app-config';
import { APP_CONFIG, CLOCK, Clock, EVENT_STORE } from '../../platform/tokens';
import { ProjectContentRepository, WorkspaceRepository } from '../../projects/workspace.repository';

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
    private readonly workspaces: WorkspaceRepository,
    private readonly contents: ProjectContentRepository,
    private readonly accounts: AccountRepository,
  ) {}

  /** The running worker (for tests that wait for it to be idle). */
  get current(): CheckWorker | undefined {
    return this.worker;
  }

  async onApplicationBootstrap(): Promise<void> {
    if (!this.config.roles.has('scraper')) return;
    this.worker = new CheckWorker(
      {
        store: this.store,
        loadProject: (projectId) => this.loadProject(projectId),
        fetchSerp: async (request) => (await this.serpFetcher()).fetchSerp(request),
        refund: async ({ accountId, batchId, checkId, credits }) => {
          await this.accounts.handle(accountId, { type: 'RefundCheck', batchId, checkId, credits }, this.clock.now(), { idempotencyKey: `refund:${checkId}` });
        },
        now: () => this.clock.now(),
        log: (message) => this.logger.warn(message),
      },
      { concurrency: this.config.scraperChecksAtOnce, partition: this.config.scraperPartition },
    );
    await this.worker.start();
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

  private async loadProject(projectId: string): Promise<ProjectToCheck | null> {
    const content = await this.contents.load(projectId);
    if (content.accountId === null) return null;
    const project = findProject(await this.workspaces.load(content.accountId), projectId);
    if (!project) return null;
    return {
      accountId: content.accountId,
      ownDomains: [project.settings.domain, ...project.settings.aliases],
      serpTop: project.settings.serpTop,
      keywords: content.keywords,
    };
  }
}
