import { Module } from '@nestjs/common';
import { NewDomainAllowances } from '@rank/accounts/new-domain-allowances';
import { ProjectsModule } from '@rank/projects/projects.module';
import { ResearchModule } from '@rank/research/research.module';
import { RateLimitsModule } from '@rank/platform/rate-limits/rate-limits.module';
import { CapacityController } from './capacity/capacity.controller';
import { CreateProjectController } from './create-project/create-project.controller';
import { DeleteProjectController } from './delete-project/delete-project.controller';
import { FoldersController } from './folders/folders.controller';
import { GetProjectController } from './get-project/get-project.controller';
import { ProjectDetailCache } from './get-project/project-detail.cache';
import { KeywordsController } from './keywords/keywords.controller';
import { ListProjectsController } from './list-projects/list-projects.controller';
import { NotesController } from './notes/notes.controller';
import { UpdateProjectController } from './update-project/update-project.controller';
import { SearchVolumesModule } from '../research/search-volumes.module';
import { CheckProgressReader } from '@rank/tracking/reads/check-progress/check-progress.reader';

/**
 * The account's own records over HTTP: projects, folders, keywords, notes, capacity. Folder, keyword and note
 * routes come before GET /api/projects/:id only for readability: Fastify matches static paths first.
 */
@Module({
  imports: [ProjectsModule, ResearchModule, RateLimitsModule, SearchVolumesModule],
  controllers: [
    FoldersController,
    KeywordsController,
    NotesController,
    CapacityController,
    ListProjectsController,
    CreateProjectController,
    UpdateProjectController,
    DeleteProjectController,
    GetProjectController,
  ],
  providers: [NewDomainAllowances, CheckProgressReader, ProjectDetailCache],
})
export class ProjectsHttpModule {}
