import { Inject, Injectable, Module, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import type { EventStore } from '@rank/event-store/event-store.port';
import type { ReadStore } from '@rank/read-store/read-store.port';
import type { AppConfig } from '@rank/platform/config/app-config';
import { APP_CONFIG, EVENT_STORE, READ_STORE } from '@rank/platform/tokens';
import { Metrics } from '@rank/platform/metrics/metrics';
import { Logger } from '@nestjs/common';
import { ALL_PROJECTIONS } from './all-projections';
import { ProjectionRunner } from './projection-runner';

/** Runs the projections in this process when its ROLES include `projections` (standalone does). */
@Injectable()
class ProjectionsLifecycle implements OnApplicationBootstrap, OnApplicationShutdown {
  constructor(
    private readonly runner: ProjectionRunner,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.runner.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.runner.stop();
  }
}

@Module({
  providers: [
    {
      provide: ProjectionRunner,
      inject: [EVENT_STORE, READ_STORE, Metrics],
      useFactory: (store: EventStore, readStore: ReadStore, metrics: Metrics) => {
        const logger = new Logger('Projections');
        const runner = new ProjectionRunner(store, readStore, ALL_PROJECTIONS, { log: (m) => logger.warn(m) });
        metrics.watchProjection(runner.name, runner);
        return runner;
      },
    },
    { provide: ProjectionsLifecycle, useClass: ProjectionsLifecycle },
  ],
  exports: [ProjectionRunner],
})
export class ProjectorModule {}
