import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import type { EventStore } from '@rank/event-store/event-store.port';
import type { AppConfig } from '@rank/platform/config/app-config';
import { APP_CONFIG, CLOCK, Clock, EVENT_STORE } from '@rank/platform/tokens';
import { CheckWorkerLifecycle } from '@rank/tracking/check/check-worker.lifecycle';
import { LiveCheckWorker } from './live-check-worker';

/** Serves live serp-checks on a process with the scraper role, through that scraper's browser and fetcher. */
@Injectable()
export class LiveCheckWorkerLifecycle implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('LiveChecks');
  private worker: LiveCheckWorker | undefined;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly checks: CheckWorkerLifecycle,
  ) {}

  onApplicationBootstrap(): void {
    this.worker = new LiveCheckWorker(
      {
        store: this.store,
        fetchSerp: (request) => this.checks.fetchSerp(request),
        now: () => this.clock.now(),
        log: (message) => this.logger.warn(message),
      },
      // Its own slots next to the scheduled checks' (SCRAPER_CHECKS_AT_ONCE), so a live check starts at once.
      { concurrency: this.config.scraperChecksAtOnce },
    );
    this.worker.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.worker?.stop();
  }
}
