import { Module } from '@nestjs/common';
import { CapacityController } from '../../../apps/api/src/projects/capacity/capacity.controller';
import { NewDomainAllowances } from '@rank/accounts/new-domain-allowances';
import { FoldersController } from '../../../apps/api/src/projects/folders/folders.controller';
import { KeywordsController } from '../../../apps/api/src/projects/keywords/keywords.controller';
import { NotesController } from '../../../apps/api/src/projects/notes/notes.controller';
import { CreateProjectController } from '../../../apps/api/src/projects/create-project/create-project.controller';
import { DeleteProjectController } from '../../../apps/api/src/projects/delete-project/delete-project.controller';
import { GetProjectController } from '../../../apps/api/src/projects/get-project/get-project.controller';
import { ListProjectsController } from '../../../apps/api/src/projects/list-projects/list-projects.controller';
import { ProjectAccess } from './project-access';
import { ProjectEraser } from './project-eraser';
import { UpdateProjectController } from '../../../apps/api/src/projects/update-project/update-project.controller';
import { ProjectContentRepository, WorkspaceRepository } from './workspace.repository';

/**
 * The account's own records: projects, folders, keywords, notes, capacity. Folder, keyword and note
 * routes come before GET /api/projects/:id only for readability: Fastify matches static paths first.
 */
@Module({
  controllers: [
    FoldersController, KeywordsController, NotesController, CapacityController,
    ListProjectsController, CreateProjectController, UpdateProjectController, DeleteProjectController, GetProjectController,
  ],
  providers: [WorkspaceRepository, ProjectContentRepository, ProjectAccess, ProjectEraser, NewDomainAllowances],
  exports: [WorkspaceRepository, ProjectContentRepository, ProjectAccess, ProjectEraser, NewDomainAllowances],
})
export class ProjectsModule {}
