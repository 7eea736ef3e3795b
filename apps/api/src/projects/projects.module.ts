import { Module } from '@nestjs/common';
import { CapacityRoute } from '../capacity/capacity.route';
import { NewDomainAllowances } from '../capacity/new-domain-allowances';
import { FoldersRoutes } from '../folders/folders.routes';
import { KeywordsRoutes } from '../keywords/keywords.routes';
import { NotesRoutes } from '../notes/notes.routes';
import { CreateProjectRoute } from './create-project/create-project.route';
import { DeleteProjectRoute } from './delete-project/delete-project.route';
import { GetProjectRoute } from './get-project/get-project.route';
import { ListProjectsRoute } from './list-projects/list-projects.route';
import { ProjectAccess } from './project-access';
import { ProjectEraser } from './project-eraser';
import { UpdateProjectRoute } from './update-project/update-project.route';
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
