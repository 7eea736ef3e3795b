import { Controller, Get, Param } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiProperty, ApiTags } from '@nestjs/swagger';
import { invalid } from '@rank/domain/domain-error';
import { isObjectId } from '@rank/domain/object-id';
import { PublicWhenShared } from '../../platform/auth/access.decorators';
import { Caller, CurrentCaller } from '../../platform/auth/caller';
import { ProjectAccess } from '@rank/projects/project-access';
import { ProjectDetailView, toProjectDetail } from '../project.view';
import { ProjectContentRepository } from '@rank/projects/workspace.repository';
import { KeywordVolumes } from '@rank/research/keyword-volumes';
import { averageMonthlySearches } from '@rank/research/reads/volume-views';
import { CheckProgressReader } from '@rank/tracking/reads/check-progress/check-progress.reader';

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
    private readonly volumes: KeywordVolumes,
    private readonly checkProgress: CheckProgressReader,
  ) {}

  /** Public when the project is shared. */
  @Get(':id')
  @PublicWhenShared()
  @ApiOkResponse({ type: GetProjectResponse })
  async get(@CurrentCaller() caller: Caller, @Param('id') id: string): Promise<GetProjectResponse> {
    if (!isObjectId(id)) throw invalid('id must be a 24-character hex id');
    const { project } = await this.access.readable(caller, id);
    const content = await this.contents.load(id);
    // Volumes are market data of their own context: one separate lookup, merged here.
    const volumes = new Map(
      [...(await this.volumes.ofKeywords(content.keywords))].map(([keywordId, v]) => [keywordId, averageMonthlySearches(v)]),
    );
    return { success: true, project: toProjectDetail(project, content, volumes, await this.checkProgress.lastCheckDay(id)) };
  }
}
