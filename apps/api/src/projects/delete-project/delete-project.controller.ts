import { Body, Controller, Delete, Inject } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiProperty, ApiTags } from '@nestjs/swagger';
import { AccountCaller, CurrentAccount } from '../../platform/auth/caller';
import { ObjectIdField } from '../../platform/http/validators';
import { CLOCK, Clock } from '@rank/platform/tokens';
import { ProjectAccess } from '@rank/projects/project-access';
import { ProjectEraser } from '@rank/projects/project-eraser';
import { FolderView, ProjectView, toFolderViews, toProjectView } from '../project.view';
import { WorkspaceRepository } from '@rank/projects/workspace.repository';

class DeleteProjectBody {
  @ObjectIdField('The project to delete')
  _id!: string;
}

class DeleteProjectResponse {
  @ApiProperty() success!: boolean;
  @ApiProperty({ example: 'Project deleted' }) message!: string;
  @ApiProperty({ type: [ProjectView] }) projects!: ProjectView[];
  @ApiProperty({ type: [FolderView] }) folders!: FolderView[];
}

@ApiTags('Projects')
@ApiBearerAuth()
@Controller('api/projects')
export class DeleteProjectController {
  constructor(
    private readonly access: ProjectAccess,
    private readonly workspaces: WorkspaceRepository,
    private readonly eraser: ProjectEraser,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** Deletes the project and all its data; answers with the refreshed project and folder lists. */
  @Delete()
  @ApiOkResponse({ type: DeleteProjectResponse })
  async delete(@CurrentAccount() caller: AccountCaller, @Body() body: DeleteProjectBody): Promise<DeleteProjectResponse> {
    const { project } = await this.access.owned(caller, body._id);
    const { state } = await this.workspaces.handle(
      caller.accountId,
      { type: 'DeleteProject', projectId: project.projectId },
      this.clock.now(),
    );
    await this.eraser.erase(project.projectId);
    return {
      success: true,
      message: 'Project deleted',
      projects: state.projects.map(toProjectView),
      folders: toFolderViews(state.folders),
    };
  }
}
