import { Controller, Get, Inject, Query, Res } from '@nestjs/common';
import { clientGone } from '../../platform/http/client-gone';
import type { FastifyReply } from 'fastify';
import { ApiBearerAuth, ApiExtraModels, ApiOkResponse, ApiProperty, ApiTags, getSchemaPath } from '@nestjs/swagger';
import { normaliseDomain } from '@rank/domain/domain-name';
import { PublicWhenShared } from '../../platform/auth/access.decorators';
import { Caller, CurrentCaller } from '../../platform/auth/caller';
import { CLOCK, Clock } from '@rank/platform/tokens';
import { ProjectAccess } from '@rank/projects/project-access';
import { ProjectContentRepository } from '@rank/projects/workspace.repository';
import { resolveDayWindow } from '@rank/tracking/reads/shared/day-window';
import { KeywordRefView, KeywordUpdateView, toKeywordRef, updatesByKeyword } from '@rank/tracking/reads/shared/keyword-update.view';
import { OptionalCalendarDateQuery, RequiredObjectIdQuery, RequiredQuery } from './query-fields';
import { CompetitorPositionsReader } from '@rank/tracking/reads/competitor-positions/competitor-positions.reader';

class CompetitorPositionsParams {
  @RequiredObjectIdQuery()
  projectId!: string;

  @ApiProperty({
    example: 'rival.com',
    description: 'Any spelling of the domain (https://www.Rival.com/x is rival.com); its subdomains count as it',
  })
  @RequiredQuery((value) => typeof value === 'string' && normaliseDomain(value) !== null, 'a domain name such as rival.com')
  competitorDomain!: string;

  @OptionalCalendarDateQuery('First day (UTC), included; default 30 days before endDate')
  startDate?: string;

  @OptionalCalendarDateQuery('Last day (UTC), included; default today')
  endDate?: string;
}

class CompetitorHistoryEntry {
  @ApiProperty({ type: KeywordRefView }) keyword!: KeywordRefView;
  @ApiProperty({
    type: [KeywordUpdateView],
    description:
      "One per UTC day, oldest first: the day's latest successful check (else its latest failed one). position describes the competitor's best result in the top 30, 0 when absent",
  })
  updates!: KeywordUpdateView[];
}

@ApiExtraModels(CompetitorHistoryEntry)
class CompetitorPositionsResponse {
  @ApiProperty() success!: boolean;
  @ApiProperty({ example: 'rival.com', description: 'The competitor domain as normalised and matched' }) competitorDomain!: string;
  @ApiProperty({
    type: 'object',
    additionalProperties: { $ref: getSchemaPath(CompetitorHistoryEntry) },
    description: "Keyed by keyword id, in the project's keyword order",
  })
  keywordHistory!: Record<string, CompetitorHistoryEntry>;
}

@ApiTags('Competitors')
@ApiBearerAuth()
@Controller('api/projects/competitor-positions')
export class CompetitorPositionsController {
  constructor(
    private readonly access: ProjectAccess,
    private readonly contents: ProjectContentRepository,
    private readonly positions: CompetitorPositionsReader,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** Where a competitor ranked for each of the project's keywords, day by day. Public when the project is shared. */
  @Get()
  @PublicWhenShared()
  @ApiOkResponse({ type: CompetitorPositionsResponse })
  async list(
    @CurrentCaller() caller: Caller,
    @Query() params: CompetitorPositionsParams,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<CompetitorPositionsResponse> {
    const competitor = normaliseDomain(params.competitorDomain)!;
    const window = resolveDayWindow(params, this.clock.now());
    const { project } = await this.access.readable(caller, params.projectId);
    const keywords = (await this.contents.load(project.projectId)).keywords;
    const updates =
      keywords.length === 0
        ? new Map<string, KeywordUpdateView[]>()
        : updatesByKeyword(await this.positions.forCaller(clientGone(reply)).run(project.projectId, competitor, window));
    const keywordHistory: Record<string, CompetitorHistoryEntry> = {};
    for (const keyword of keywords) {
      keywordHistory[keyword.keywordId] = { keyword: toKeywordRef(keyword), updates: updates.get(keyword.keywordId) ?? [] };
    }
    return { success: true, competitorDomain: competitor, keywordHistory };
  }
}
