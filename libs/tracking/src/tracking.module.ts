import { Module, OnModuleInit } from '@nestjs/common';
import { ScheduleModule } from '@nestjs/schedule';
import { ProjectContentEvent, projectStreamName } from '@rank/projects/domain/project-content.events';
import { checksStreamName } from './domain/check.events';
import type { EventStore } from '@rank/event-store/event-store.port';
import { Inject } from '@nestjs/common';
import { AccountsModule } from '@rank/accounts/accounts.module';
import { EVENT_STORE } from '@rank/platform/tokens';
import { ProjectEraser } from '@rank/projects/project-eraser';
import { ProjectsModule } from '@rank/projects/projects.module';
import { CheckDispatcherLifecycle } from './dispatch/check-dispatcher.lifecycle';
import { CheckWorkSupport } from './check/check-work-support';
import { CheckWorkerLifecycle } from './check/check-worker.lifecycle';
import { RequestScrapeController } from '../../../apps/api/src/tracking/request-scrape/request-scrape.controller';
import { CheckScheduler } from './schedule/check-scheduler';
import { MonthlyTokensRepository } from './schedule/monthly-tokens.repository';
import { ScheduledChecksRepository } from './schedule/scheduled-checks.repository';

/**
 * Rank tracking's write side: on-demand scrapes, the scheduler, the work dispatcher, the check worker. Their project
 * streams (`checks-<projectId>-*`, `schedule-*`) are erased with their project; the account's monthly token
 * ledgers (`tokens-*`) stay: the tokens a deleted project drew were spent.
 */
@Module({
  imports: [ScheduleModule.forRoot(), AccountsModule, ProjectsModule],
  controllers: [RequestScrapeController],
  providers: [CheckWorkSupport, CheckDispatcherLifecycle, CheckWorkerLifecycle, CheckScheduler, ScheduledChecksRepository, MonthlyTokensRepository],
  exports: [CheckDispatcherLifecycle, CheckWorkerLifecycle, CheckScheduler],
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
        // Every keyword the project ever had, removed ones too: their results are the project's data.
        const everAdded = new Set<string>();
        for (const event of await this.store.readStream(projectStreamName(projectId))) {
          const content = event as unknown as ProjectContentEvent;
          if (content.type === 'KeywordsAdded') for (const keyword of content.data.keywords) everAdded.add(keyword.keywordId);
        }
        for (const keywordId of everAdded) await this.store.deleteStream(checksStreamName(projectId, keywordId));
      },
    });
  }
}
