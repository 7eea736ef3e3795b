import { Module, OnModuleInit } from '@nestjs/common';
import { ScheduleModule } from '@nestjs/schedule';
import { checksStreamName } from '../../../../libs/domain/src/tracking/check.events';
import type { EventStore } from '../../../../libs/event-store/src/event-store.port';
import { Inject } from '@nestjs/common';
import { AccountsModule } from '../accounts/accounts.module';
import { EVENT_STORE } from '../platform/tokens';
import { ProjectEraser } from '../projects/project-eraser';
import { ProjectsModule } from '../projects/projects.module';
import { CheckWorkerLifecycle } from './check-worker/check-worker.lifecycle';
import { RequestScrapeRoute } from './request-scrape/request-scrape.route';
import { CheckScheduler } from './scheduler/check-scheduler';
import { ScheduledChecksRepository } from './scheduler/scheduled-checks.repository';

/**
 * Rank tracking's write side: on-demand scrapes, the scheduler, the check worker. Their streams
 * (`checks-*`, `schedule-*`) are erased with their project.
 */
@Module({
  imports: [ScheduleModule.forRoot(), AccountsModule, ProjectsModule],
  controllers: [RequestScrapeRoute],
  providers: [CheckWorkerLifecycle, CheckScheduler, ScheduledChecksRepository],
  exports: [CheckWorkerLifecycle, CheckScheduler],
})
export class TrackingModule implements OnModuleInit {
  constructor(
    private readonly eraser: ProjectEraser,
    private readonly schedules: ScheduledChecksRepository,
    @Inject(EVENT_STORE) private readonly store: EventStore,
  ) {}

  onModuleInit(): void {
    this.eraser.register({
      eraseProject: async (projectId) => {
        await this.schedules.delete(projectId);
        await this.store.deleteStream(checksStreamName(projectId));
      },
    });
  }
}
