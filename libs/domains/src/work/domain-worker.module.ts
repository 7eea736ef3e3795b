import { Inject, Injectable, Logger, Module, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import type { EventStore } from '@rank/event-store/event-store.port';
import { CLOCK, Clock, EVENT_STORE } from '@rank/platform/tokens';
import { fetchRecordOf } from '../domain/domain-data';
import { DomainDataRepository } from '../domain-data.repository';
import { DomainsModule } from '../domains.module';
import { DomainDataFetcher } from '../fetch/domain-data-fetcher';
import { DomainDataWorker } from './domain-data-worker';
import type { DomainJob } from './domain-work.process';

/**
 * Runs the domain-data worker in the process with the `projections` role: like the dispatcher it
 * follows the whole log, once. It measures page speed in this process: with no PAGESPEED_* set that
 * is a local Lighthouse run, so the projector needs a Chromium, found as the scraper finds one
 * (CHROMIUM_PATH, a system browser, else the bundled @sparticuz/chromium in node_modules).
 */
@Injectable()
export class DomainDataWorkerLifecycle implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('DomainDataWorker');
  private worker: DomainDataWorker | undefined;

  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
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
      fetchRecord: async (job) => fetchRecordOf(await this.repository.load(job.domain), job.kind, job.kind === 'traffic' ? job.domain : job.url),
      run: (job) => this.run(job),
      log: (message) => this.logger.warn(message),
    });
    await this.worker.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.worker?.stop();
  }

  private async run(job: DomainJob): Promise<void> {
    switch (job.kind) {
      case 'traffic':
        await this.fetcher.traffic(job.domain, 'background');
        return;
      case 'pagespeed':
        await this.fetcher.pageSpeed(job.domain, job.url, job.level, 'background');
        return;
      case 'crux':
        await this.fetcher.cruxHistory(job.domain, job.target, job.url, 'background');
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
