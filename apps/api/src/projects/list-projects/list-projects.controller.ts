import { Controller, Get } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiProperty, ApiTags } from '@nestjs/swagger';
import { AccountCaller, CurrentAccount } from '../../platform/auth/caller';
import { ProjectView, toProjectView } from '../project.view';
import { WorkspaceRepository } from '@rank/projects/workspace.repository';

class ListProjectsResponse {
  @ApiProperty() success!: boolean;
  @ApiProperty({ type: [ProjectView] }) projects!: ProjectView[];
}

@ApiTags('Projects')
@ApiBearerAuth()
@Controller('api/projects')
export class ListProjectsController {
  constructor(private readonly workspaces: WorkspaceRepository) {}

  @Get()
  @ApiOkResponse({ type: ListProjectsResponse })
  async list(@CurrentAccount() caller: AccountCaller): Promise<ListProjectsResponse> {
    const workspace = await this.workspaces.load(caller.accountId);
    return { success: true, projects: workspace.projects.map(toProjectView) };
  }
}
