import { Module } from '@nestjs/common';
import { ProjectsModule } from '@rank/projects/projects.module';
import { ResearchModule } from '@rank/research/research.module';
import { KeywordVolumesController } from './keyword-volumes.controller';

/** Keyword research over HTTP: keyword volumes, keyword ideas and keyword research. */
@Module({
  imports: [ProjectsModule, ResearchModule],
  controllers: [KeywordVolumesController],
})
export class ResearchHttpModule {}
