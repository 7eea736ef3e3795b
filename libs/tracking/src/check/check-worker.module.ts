import { Module } from '@nestjs/common';
import { TrackingModule } from '../tracking.module';
import { CheckWorkerLifecycle } from './check-worker.lifecycle';

/** The scraper role: runs queued checks in Chromium and appends their results. Needs the event store, not ClickHouse. */
@Module({
  imports: [TrackingModule],
  providers: [CheckWorkerLifecycle],
  exports: [CheckWorkerLifecycle],
})
export class CheckWorkerModule {}
