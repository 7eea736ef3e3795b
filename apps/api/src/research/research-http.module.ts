import { Module } from '@nestjs/common';
import { ProjectsModule } from '@rank/projects/projects.module';
import { ResearchModule } from '@rank/research/research.module';
import { RateLimitsModule } from '@rank/platform/rate-limits/rate-limits.module';
import { KeywordIdeasController } from './keyword-ideas.controller';
import { KeywordResearchController } from './keyword-research.controller';
import { KeywordVolumesController } from './keyword-volumes.controller';
import { KeywordSuggestionsController } from './keyword-suggestions.controller';
import { KeywordSuggestions } from '@rank/research/suggestions/keyword-suggestions';

/** Keyword research over HTTP: keyword volumes, keyword ideas, keyword research and keyword suggestions. */
@Module({
  imports: [ProjectsModule, ResearchModule, RateLimitsModule],
  controllers: [KeywordVolumesController, KeywordIdeasController, KeywordResearchController, KeywordSuggestionsController],
  providers: [KeywordSuggestions],
})
export class ResearchHttpModule {}
