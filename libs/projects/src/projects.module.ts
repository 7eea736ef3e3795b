import { Module } from '@nestjs/common';
import { CapacityRoute } from '../../../apps/api/src/projects/capacity/capacity.controller';
import { NewDomainAllowances } from '@rank/accounts/new-domain-allowances';
import { FoldersRoutes } from '../../../apps/api/src/projects/folders/folders.controller';
import { KeywordsRoutes } from '../../../apps/api/src/projects/keywords/keywords.controller';
import { NotesRoutes } from '../../../apps/api/src/projects/notes/notes.controller';
import { CreateProjectRoute } from '../../../apps/api/src/projects/create-project/create-project.controller';
import { DeleteProjectRoute } from '../../../apps/api/src/projects/delete-project/delete-project.controller';
import { GetProjectRoute } from '../../../apps/api/src/projects/get-project/get-project.controller';
import { ListProjectsRoute } from '../../../apps/api/src/projects/list-projects/list-projects.controller';
import { ProjectAccess } from './project-access';
import { ProjectEraser } from './project-eraser';
import { UpdateProjectRoute } from '../../../apps/api/src/projects/update-project/update-project.controller';
import { ProjectContentRepository, WorkspaceRepository } from './workspace.repository';

/**
 * The account's own records: projects, folders, keywords, notes, capacity. Folder, keyword and note
 * routes come before GET /api/projects/:id only for readability: Fastify matches static paths first.
 */
@Module({
  controllers: [
    FoldersRoutes, KeywordsRoutes, NotesRoutes, CapacityRoute,
    ListProjectsRoute, CreateProjectRoute, UpdateProjectRoute, DeleteProjectRoute, GetProjectRoute,
  ],
  providers: [WorkspaceRepository, ProjectContentRepository, ProjectAccess, ProjectEraser, NewDomainAllowances],
  exports: [WorkspaceRepository, ProjectContentRepository, ProjectAccess, ProjectEraser, NewDomainAllowances],
})
export class ProjectsModule {}
