import { Inject, Injectable, Logger, Module, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import type { EventStore } from '@rank/event-store/event-store.port';
import { EVENT_STORE } from '@rank/platform/tokens';
import { DomainDataWritersModule } from '../domain-data-writers.module';
import { DomainDataFetcher } from '../fetch/domain-data-fetcher';
import { PageSpeedMeasurer } from './page-speed-measurer';

/** Runs the page-speed measurer in a process with the `scraper` role: it has the Chromium a Lighthouse run needs. */
@Injectable()
export class PageSpeedMeasurerLifecycle implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('PageSpeed');
  private measurer: PageSpeedMeasurer | undefined;

  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly fetcher: DomainDataFetcher,
  ) {}

  get current(): PageSpeedMeasurer | undefined {
    return this.measurer;
  }

  onApplicationBootstrap(): void {
    this.measurer = new PageSpeedMeasurer({
      store: this.store,
      measure: async (request) => {
        const outcome = await this.fetcher.pageSpeed(request.domain, request.url, request.level, request.retry ? 'retry' : 'background');
        // Cut off by a stop of this process's fetcher: not measured, so not settled; the group offers it again.
        if (outcome.kind === 'stopped') throw new Error('the service stopped before the measurement was made');
      },
      log: (message) => this.logger.warn(message),
    });
    this.measurer.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.measurer?.stop();
  }
}

/** The scrapers' share of the domain data: page-speed measurements asked by the projector. */
@Module({
  imports: [DomainDataWritersModule],
  providers: [PageSpeedMeasurerLifecycle],
  exports: [PageSpeedMeasurerLifecycle],
})
export class PageSpeedMeasurerModule {}
