import { DynamicModule, Module } from '@nestjs/common';
import { PlatformModule, PlatformOptions } from '@rank/platform/platform.module';
import { ProjectorModule } from '@rank/projector/projector.module';
import { VolumeFetcherModule } from '@rank/research/volume-fetcher.module';
import { SuggestionsRunnerModule } from '@rank/research/suggestions/suggestions-runner.module';
import { DispatcherModule } from '@rank/tracking/dispatch/dispatcher.module';
import { SchedulerModule } from '@rank/tracking/schedule/scheduler.module';
import { DomainWorkerModule } from '@rank/domains/work/domain-worker.module';

/**
 * The projector app: the followers of the whole log (the read-model projections, the work
 * dispatcher with its refunds, the domain-data worker) and the scheduler. Run one; a second only repeats idempotent writes.
 */
@Module({})
export class ProjectorAppModule {
  static forRoot(options: PlatformOptions): DynamicModule {
    return {
      module: ProjectorAppModule,
      imports: [
        PlatformModule.forRoot(options),
        ProjectorModule,
        DispatcherModule,
        SchedulerModule,
        VolumeFetcherModule,
        SuggestionsRunnerModule,
        DomainWorkerModule,
      ],
    };
  }
}
