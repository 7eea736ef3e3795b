import { Module } from '@nestjs/common';
import { ProjectAccess } from './project-access';
import { ProjectEraser } from './project-eraser';
import { ProjectContentRepository, WorkspaceRepository } from './workspace.repository';

/**
 * The account's own records: projects, folders, keywords, notes, capacity. Folder, keyword and note
 * routes come before GET /api/projects/:id only for readability: Fastify matches static paths first.
 */
@Module({
  providers: [WorkspaceRepository, ProjectContentRepository, ProjectAccess, ProjectEraser],
  exports: [WorkspaceRepository, ProjectContentRepository, ProjectAccess, ProjectEraser],
})
export class ProjectsModule {}
