import { Controller, Get, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiProperty, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { AccountCaller, CurrentAccount } from '../../platform/auth/caller';
import { ProjectView } from '../project.view';
import { projectListBody } from './project-list-body';
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
  async list(@CurrentAccount() caller: AccountCaller, @Res({ passthrough: true }) reply: FastifyReply): Promise<Buffer> {
    const workspace = await this.workspaces.load(caller.accountId);
    // A ListProjectsResponse already serialized: sent as is.
    void reply.header('content-type', 'application/json; charset=utf-8');
    return projectListBody(workspace.projects);
  }
}
