import { Module, OnModuleInit } from '@nestjs/common';
import { PROJECT_CONTENT_EVENT_TYPES, ProjectContentEvent, projectStreamName } from '@rank/projects/domain/project-content.events';
import { parseEvent } from '@rank/domain/domain-event';
import { checksStreamName } from './domain/check.events';
import type { EventStore } from '@rank/event-store/event-store.port';
import { Inject } from '@nestjs/common';
import { AccountsModule } from '@rank/accounts/accounts.module';
import { EVENT_STORE } from '@rank/platform/tokens';
import { ProjectEraser } from '@rank/projects/project-eraser';
import { ProjectsModule } from '@rank/projects/projects.module';
import { ProjectsToCheck } from './check/projects-to-check';
import { CreditRefunds } from './refund/credit-refunds';
import { ScheduledChecksRepository } from './schedule/scheduled-checks.repository';

/**
 * Rank tracking's shared parts: what the scheduler, the dispatcher, the check worker and the routes all
 * need. The roles themselves are modules of their own (SchedulerModule, DispatcherModule,
 * CheckWorkerModule), so that an app composes only the roles it runs. A project's tracking streams
 * (`checks-<projectId>-*`, `schedule-*`) are erased with the project; the account's monthly token
 * ledgers (`tokens-*`) stay: the tokens a deleted project drew were spent.
 */
@Module({
  imports: [AccountsModule, ProjectsModule],
  providers: [ProjectsToCheck, CreditRefunds, ScheduledChecksRepository],
  exports: [ProjectsToCheck, CreditRefunds, ScheduledChecksRepository, AccountsModule, ProjectsModule],
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
        for (const stored of await this.store.readStream(projectStreamName(projectId))) {
          const content = parseEvent<ProjectContentEvent>(stored, PROJECT_CONTENT_EVENT_TYPES);
          if (content?.type === 'KeywordsAdded') for (const keyword of content.data.keywords) everAdded.add(keyword.keywordId);
        }
        for (const keywordId of everAdded) await this.store.deleteStream(checksStreamName(projectId, keywordId));
      },
    });
  }
}
