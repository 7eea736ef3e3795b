import { Module } from '@nestjs/common';
import { CheckWorkerModule } from '@rank/tracking/check/check-worker.module';
import { LiveCheckWorkerLifecycle } from './live-check-worker.lifecycle';

/** The scraper role's live serp-checks: compose it wherever CheckWorkerModule runs. */
@Module({
  imports: [CheckWorkerModule],
  providers: [LiveCheckWorkerLifecycle],
})
export class LiveCheckWorkerModule {}
