import { Module } from '@nestjs/common';
import { ScheduleModule } from '@nestjs/schedule';
import { TrackingModule } from '../tracking.module';
import { CheckScheduler } from './check-scheduler';
import { MonthlyTokensRepository } from './monthly-tokens.repository';
import { CheckRetryTimer } from './check-retry-timer';
import { CheckProgressReader } from '../reads/check-progress/check-progress.reader';

/**
 * The scheduler role: every minute, requests the due slot of each project (needs the read store's
 * project list), and queues the retries of scheduled checks whose time has come.
 */
@Module({
  imports: [ScheduleModule.forRoot(), TrackingModule],
  providers: [CheckScheduler, MonthlyTokensRepository, CheckRetryTimer, CheckProgressReader],
  exports: [CheckScheduler, CheckRetryTimer],
})
export class SchedulerModule {}
