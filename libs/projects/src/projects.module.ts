import { Module } from '@nestjs/common';
import { AccountsModule } from '@rank/accounts/accounts.module';
import { ProjectAccess } from './project-access';
import { ProjectEraser } from './project-eraser';
import { ProjectContentRepository, WorkspaceRepository } from './workspace.repository';

/** The account's own records: workspaces (folders, project settings) and project contents (keywords, notes), and who may see them. */
@Module({
  imports: [AccountsModule],
  providers: [WorkspaceRepository, ProjectContentRepository, ProjectAccess, ProjectEraser],
  exports: [WorkspaceRepository, ProjectContentRepository, ProjectAccess, ProjectEraser],
})
export class ProjectsModule {}
