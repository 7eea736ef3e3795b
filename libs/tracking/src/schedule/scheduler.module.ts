import { Module } from '@nestjs/common';
import { ScheduleModule } from '@nestjs/schedule';
import { TrackingModule } from '../tracking.module';
import { CheckScheduler } from './check-scheduler';
import { MonthlyTokensRepository } from './monthly-tokens.repository';

/** The scheduler role: every minute, requests the due slot of each project (needs the read store's project list). */
@Module({
  imports: [ScheduleModule.forRoot(), TrackingModule],
  providers: [CheckScheduler, MonthlyTokensRepository],
  exports: [CheckScheduler],
})
export class SchedulerModule {}
