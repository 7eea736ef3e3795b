import { Module } from '@nestjs/common';
import { ProjectsModule } from '@rank/projects/projects.module';
import { ResearchModule } from '@rank/research/research.module';
import { RateLimitsModule } from '@rank/platform/rate-limits/rate-limits.module';
import { KeywordIdeasController } from './keyword-ideas.controller';
import { KeywordResearchController } from './keyword-research.controller';
import { KeywordVolumesController } from './keyword-volumes.controller';

/** Keyword research over HTTP: keyword volumes, keyword ideas and keyword research. */
@Module({
  imports: [ProjectsModule, ResearchModule, RateLimitsModule],
  controllers: [KeywordVolumesController, KeywordIdeasController, KeywordResearchController],
})
export class ResearchHttpModule {}
