import { Controller, Get, Param, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiParam, ApiProperty, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { invalid } from '@rank/domain/domain-error';
import { isObjectId } from '@rank/domain/object-id';
import { PublicWhenShared } from '../../platform/auth/access.decorators';
import { Caller, CurrentCaller } from '../../platform/auth/caller';
import { OBJECT_ID_PATTERN } from '../../platform/http/validators';
import { ProjectAccess } from '@rank/projects/project-access';
import { ProjectDetailView } from '../project.view';
import { ProjectContentRepository } from '@rank/projects/workspace.repository';
import { ProjectDetailCache } from './project-detail.cache';

class GetProjectResponse {
  @ApiProperty() success!: boolean;
  @ApiProperty({ type: ProjectDetailView }) project!: ProjectDetailView;
}

@ApiTags('Projects')
@ApiBearerAuth()
@Controller('api/projects')
export class GetProjectController {
  constructor(
    private readonly access: ProjectAccess,
    private readonly contents: ProjectContentRepository,
    private readonly details: ProjectDetailCache,
  ) {}

  /** Public when the project is shared. */
  @Get(':id')
  @PublicWhenShared()
  @ApiOkResponse({ type: GetProjectResponse })
  @ApiParam({
    name: 'id',
    description: 'The project id',
    example: '6740a1b2c3d4e5f601234567',
    schema: { type: 'string', pattern: OBJECT_ID_PATTERN },
  })
  async get(@CurrentCaller() caller: Caller, @Param('id') id: string, @Res({ passthrough: true }) reply: FastifyReply): Promise<Buffer> {
    if (!isObjectId(id)) throw invalid('id must be a 24-character hex id');
    // Access is checked on every request; only the body, the same for every caller allowed to see it, is cached.
    const { project } = await this.access.readable(caller, id);
    const content = await this.contents.load(id);
    const body = await this.details.body(id, project, content);
    // A GetProjectResponse already serialized: sent as is.
    void reply.header('content-type', 'application/json; charset=utf-8');
    return body;
  }
}
