import { Controller, Get, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiExtraModels, ApiOkResponse, ApiProperty, ApiTags, getSchemaPath } from '@nestjs/swagger';
import { normaliseDomain } from '@rank/domain/domain-name';
import { DomainReads } from '@rank/domains/reads/domain-reads';
import { ProjectAccess } from '@rank/projects/project-access';
import { ProjectContentRepository } from '@rank/projects/workspace.repository';
import { DomainDataReader } from '@rank/domains/reads/domain-data.reader';
import { PublicWhenShared } from '../platform/auth/access.decorators';
import { Caller, CurrentCaller } from '../platform/auth/caller';
import { RequiredObjectIdQuery } from '../tracking/reads/query-fields';
import { PagePageSpeedDto } from './domain-data.dto';

class PagesPageSpeedParams {
  @RequiredObjectIdQuery()
  projectId!: string;
}

@ApiExtraModels(PagePageSpeedDto)
class PagesPageSpeedResponse {
  @ApiProperty() success!: boolean;
  @ApiProperty({
    type: PagePageSpeedDto,
    nullable: true,
    description: "The home page's record, else the domain's snapshot (source: domain), else null",
  })
  baseline!: PagePageSpeedDto | null;
  @ApiProperty({ type: 'object', additionalProperties: { $ref: getSchemaPath(PagePageSpeedDto) }, description: 'Keyed by URL' })
  pages!: Record<string, PagePageSpeedDto>;
}

@ApiTags('Performance')
@ApiBearerAuth()
@Controller('api/projects/pages-pagespeed')
export class PagesPageSpeedController {
  constructor(
    private readonly access: ProjectAccess,
    private readonly contents: ProjectContentRepository,
    private readonly reader: DomainDataReader,
    private readonly reads: DomainReads,
  ) {}

  /**
   * The project's ranking pages (its keywords' latest ranking URLs), measured in the background at
   * most weekly per URL. Public when the project is shared; not a domain lookup of the allowance.
   */
  @Get()
  @PublicWhenShared()
  @ApiOkResponse({ type: PagesPageSpeedResponse })
  async list(@CurrentCaller() caller: Caller, @Query() params: PagesPageSpeedParams): Promise<PagesPageSpeedResponse> {
    const { project } = await this.access.readable(caller, params.projectId);
    const keywordIds = (await this.contents.load(project.projectId)).keywords.map((k) => k.keywordId);
    const urls = await this.reader.rankingUrls(project.projectId, keywordIds);
    const domain = normaliseDomain(project.settings.domain) ?? project.settings.domain;
    return { success: true, ...(await this.reads.pagesPageSpeed(domain, urls)) };
  }
}
