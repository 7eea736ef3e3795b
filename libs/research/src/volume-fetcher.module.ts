import { Module } from '@nestjs/common';
import { ResearchModule } from './research.module';
import { VolumeFetcherLifecycle } from './volume-fetcher.lifecycle';

/** The volume fetcher role (run by the projector): volumes of added keywords in the background, refreshed monthly. */
@Module({
  imports: [ResearchModule],
  providers: [VolumeFetcherLifecycle],
  exports: [VolumeFetcherLifecycle],
})
export class VolumeFetcherModule {}
