import { Body, Controller, Inject, Put } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiProperty, ApiPropertyOptional, ApiTags } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsOptional, IsString } from 'class-validator';
import { findProject } from '@rank/projects/domain/workspace';
import { AccountCaller, CurrentAccount } from '../../platform/auth/caller';
import { ObjectIdField } from '../../platform/http/validators';
import { CLOCK, Clock } from '@rank/platform/tokens';
import { ProjectAccess } from '@rank/projects/project-access';
import { parseDomainList, parseFolder, ProjectSettingsBody, settingsChangeOf } from '../project-input';
import { ProjectView, toProjectView } from '../project.view';
import { WorkspaceRepository } from '@rank/projects/workspace.repository';

export class UpdateProjectBody extends ProjectSettingsBody {
  @ObjectIdField('The project to update')
  _id!: string;

  @ApiPropertyOptional({
    type: 'array',
    items: { type: 'string', maxLength: 253 },
    maxItems: 500,
    description: "Competitor domains; normalised, duplicates and the project's own domain dropped",
  })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(500)
  @IsString({ each: true })
  competitors?: string[];
}

class UpdateProjectResponse {
  @ApiProperty() success!: boolean;
  @ApiProperty({ type: ProjectView }) project!: ProjectView;
  @ApiProperty({ example: 'Project updated' }) message!: string;
}

@ApiTags('Projects')
@ApiBearerAuth()
@Controller('api/projects')
export class UpdateProjectController {
  constructor(
    private readonly access: ProjectAccess,
    private readonly workspaces: WorkspaceRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** `_id`, `name` and `domain` are required; other settings keep their value when absent. */
  @Put()
  @ApiOkResponse({ type: UpdateProjectResponse })
  async update(@CurrentAccount() caller: AccountCaller, @Body() body: UpdateProjectBody): Promise<UpdateProjectResponse> {
    const { project } = await this.access.owned(caller, body._id);
    // Only what the body says: the rest keeps its value as the project is when the update is decided.
    const settings = settingsChangeOf(body);
    const competitors = parseDomainList('competitors', body.competitors, settings.domain);
    const { state } = await this.workspaces.handle(
      caller.accountId,
      {
        type: 'UpdateProject',
        projectId: project.projectId,
        settings,
        folder: parseFolder(body.folder),
        competitors,
      },
      this.clock.now(),
    );
    return { success: true, project: toProjectView(findProject(state, project.projectId)!), message: 'Project updated' };
  }
}
