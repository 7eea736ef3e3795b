import { Module } from '@nestjs/common';
import { ResearchModule } from '../research.module';
import { LiveChecks } from './live-checks';
import { SerpCheck } from './serp-check';

/** serp-check for the api: live checks through the scrapers, volumes from the research context. */
@Module({
  imports: [ResearchModule],
  providers: [LiveChecks, SerpCheck],
  exports: [SerpCheck],
})
export class SerpCheckModule {}
