import { Module } from '@nestjs/common';
import { TrackingModule } from '../tracking.module';
import { CheckDispatcherLifecycle } from './check-dispatcher.lifecycle';

/** The dispatcher role (run by the projector): work orders into queued checks, refunds of failed checks. */
@Module({
  imports: [TrackingModule],
  providers: [CheckDispatcherLifecycle],
  exports: [CheckDispatcherLifecycle],
})
export class DispatcherModule {}
