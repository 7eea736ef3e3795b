import { Module } from '@nestjs/common';
import { TrackingModule } from '../tracking.module';
import { WorkDispatcherLifecycle } from './work-dispatcher.lifecycle';

/** The dispatcher role (run by the projector): work orders into queued checks, refunds of failed checks, the erasure of deleted projects. */
@Module({
  imports: [TrackingModule],
  providers: [WorkDispatcherLifecycle],
  exports: [WorkDispatcherLifecycle],
})
export class DispatcherModule {}
