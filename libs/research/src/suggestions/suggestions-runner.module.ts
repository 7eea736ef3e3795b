import { Module } from '@nestjs/common';
import { ProjectsModule } from '@rank/projects/projects.module';
import { ResearchModule } from '../research.module';
import { SuggestionsRunnerLifecycle } from './suggestions-runner.lifecycle';
import { SuggestionsReader } from './suggestions.reader';

/** The keyword-suggestions role (run by the projector): runs on project creation, new keyword locales and the monthly refresh. */
@Module({
  imports: [ResearchModule, ProjectsModule],
  providers: [SuggestionsReader, SuggestionsRunnerLifecycle],
  exports: [SuggestionsRunnerLifecycle],
})
export class SuggestionsRunnerModule {}
