import { Module } from '@nestjs/common';
import { ResearchModule } from '@rank/research/research.module';
import { ProjectSearchVolumes } from './project-search-volumes';

/** One ProjectSearchVolumes for the routes that merge volumes in (project detail, keyword-updates, exports), so they share its memo. */
@Module({
  imports: [ResearchModule],
  providers: [ProjectSearchVolumes],
  exports: [ProjectSearchVolumes],
})
export class SearchVolumesModule {}
