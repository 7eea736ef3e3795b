import { Inject, Injectable, Logger, Module, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import type { EventStore } from '@rank/event-store/event-store.port';
import type { AppConfig } from '@rank/platform/config/app-config';
import { APP_CONFIG, CLOCK, Clock, EVENT_STORE } from '@rank/platform/tokens';
import { DOMAIN_DATA_PROVIDERS, DomainDataProviders } from '../domain-data-providers';
import { pageSpeedWorkStreamName } from '../domain/page-speed-work.events';
import { fetchRecordOf } from '../domain/domain-data';
import { DomainDataRepository } from '../domain-data.repository';
import { DomainsModule } from '../domains.module';
import { DomainDataFetcher } from '../fetch/domain-data-fetcher';
import { DomainDataWorker } from './domain-data-worker';
import { fetchOf, fetchOriginOf, pageSpeedRequestOf, pageSpeedRunsAt, ScheduledJob } from './domain-work.process';

/**
 * Runs the domain-data worker in the process with the `projections` role: like the dispatcher it
 * follows the whole log, once. Page speed by PageSpeed Insights is fetched here; a local Lighthouse
 * run needs a Chromium, which only scrapers have in the distributed stack, so without the scraper
 * role here it is handed to them as a request (see page-speed-work.events.ts); standalone, it runs here.
 */
@Injectable()
export class DomainDataWorkerLifecycle implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('DomainDataWorker');
  private worker: DomainDataWorker | undefined;

  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(DOMAIN_DATA_PROVIDERS) private readonly providers: DomainDataProviders,
    private readonly repository: DomainDataRepository,
    private readonly fetcher: DomainDataFetcher,
  ) {}

  get current(): DomainDataWorker | undefined {
    return this.worker;
  }

  async onApplicationBootstrap(): Promise<void> {
    this.worker = new DomainDataWorker({
      store: this.store,
      now: () => this.clock.now(),
      fetchRecord: async (job) => fetchRecordOf(await this.repository.load(job.domain), ...fetchOf(job)),
      run: (scheduled) => this.run(scheduled),
      log: (message) => this.logger.warn(message),
    });
    await this.worker.start();
  }

  async onApplicationShutdown(): Promise<void> {
    // The fetches under way end at once (cut off, not recorded), so the worker's stop does not wait for them.
    this.fetcher.stop();
    await this.worker?.stop();
  }

  private async run(scheduled: ScheduledJob): Promise<void> {
    const { job } = scheduled;
    const origin = fetchOriginOf(scheduled);
    switch (job.kind) {
      case 'traffic':
        await this.fetcher.traffic(job.domain, origin);
        return;
      case 'pagespeed': {
        const request =
          pageSpeedRunsAt(this.providers.pageSpeed.source, this.config.roles.has('scraper')) === 'scrapers'
            ? pageSpeedRequestOf(scheduled, this.clock.now())
            : null;
        if (!request) {
          await this.fetcher.pageSpeed(job.domain, job.url, job.level, origin);
          return;
        }
        // Appending the same request again (a replay, a second trigger the same day) stores nothing new.
        await this.store.appendToStream(
          pageSpeedWorkStreamName(request.requestId),
          [{ id: request.requestId, type: 'PageSpeedMeasurementRequested', data: request }],
          { expectedRevision: 'any' },
        );
        return;
      }
      case 'crux':
        await this.fetcher.cruxHistory(job.domain, job.target, job.url, origin);
        return;
    }
  }
}

/** The background work on external domains' data (run by the projector). */
@Module({
  imports: [DomainsModule],
  providers: [DomainDataWorkerLifecycle],
  exports: [DomainDataWorkerLifecycle],
})
export class DomainWorkerModule {}
