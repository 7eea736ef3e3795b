import { Controller, Get, Query, Res, UnauthorizedException } from '@nestjs/common';
import { clientGone } from '../../platform/http/client-gone';
import type { FastifyReply } from 'fastify';
import { ApiBearerAuth, ApiOkResponse, ApiProperty, ApiTags } from '@nestjs/swagger';
import { DomainError, notFound } from '@rank/domain/domain-error';
import { PublicWhenShared } from '../../platform/auth/access.decorators';
import { Caller, CurrentCaller } from '../../platform/auth/caller';
import { MISSING_KEY, ProjectAccess } from '@rank/projects/project-access';
import { ProjectContentRepository } from '@rank/projects/workspace.repository';
import { ourDomains } from '@rank/tracking/reads/shared/domain-matcher';
import { UPDATE_STATUSES, UpdateStatus } from '@rank/tracking/reads/shared/keyword-update.view';
import { RequiredObjectIdQuery } from './query-fields';
import { PositionHistoryReader } from '@rank/tracking/reads/position-history/position-history.reader';
import { compareSnapshots, MovementType } from '@rank/tracking/reads/position-history/serp-movement';

class PositionHistoryParams {
  @RequiredObjectIdQuery('A keyword update `_id` (a check id) from keyword-updates')
  keywordUpdateId!: string;
}

const MOVEMENTS: MovementType[] = ['up', 'down', 'same', 'new', 'gone'];

class SerpMovementView {
  @ApiProperty({ enum: MOVEMENTS }) type!: MovementType;
  @ApiProperty({ type: 'integer', minimum: 0, nullable: true, description: 'Places moved for up/down, 0 for same, null for new and gone' })
  value!: number | null;
}

class SerpResultView {
  @ApiProperty({ type: 'integer', minimum: 1 }) position!: number;
  @ApiProperty() title!: string;
  @ApiProperty({ example: 'example.com' }) domain!: string;
  @ApiProperty() url!: string;
  @ApiProperty({
    type: 'integer',
    nullable: true,
    description: "The domain's position in the previous successful check; null when it was not there",
  })
  previousPosition!: number | null;
  @ApiProperty({ type: SerpMovementView }) movement!: SerpMovementView;
}

class DroppedDomainView {
  @ApiProperty() domain!: string;
  @ApiProperty({ type: 'integer', minimum: 1 }) previousPosition!: number;
  @ApiProperty({ type: SerpMovementView, example: { type: 'gone', value: null } }) movement!: SerpMovementView;
}

class AiOverviewSourceView {
  @ApiProperty({ type: 'integer', minimum: 1, description: 'Citation order, 1-based' }) position!: number;
  @ApiProperty() title!: string;
  @ApiProperty() domain!: string;
  @ApiProperty() url!: string;
  @ApiProperty({ description: 'The project domain, an alias, or a subdomain of either' }) isOurDomain!: boolean;
}

class PositionHistoryView {
  @ApiProperty() keywordId!: string;
  @ApiProperty() keywordValue!: string;
  @ApiProperty({ format: 'date-time' }) date!: string;
  @ApiProperty({ enum: UPDATE_STATUSES, description: 'A failed check has no result page: its lists are empty' }) status!: UpdateStatus;
  @ApiProperty({ type: String, nullable: true, description: 'Why the check failed; null when it succeeded' }) failureReason!: string | null;
  @ApiProperty({
    type: String,
    nullable: true,
    enum: ['browser', 'fetch-api', 'dataforseo', 'serpapi'],
    description:
      "The SERP source that answered (checks from before sources existed: browser); null for a failed check, whose failureReason names each source's reason",
  })
  source!: string | null;
  @ApiProperty({ type: [SerpResultView], description: "The top 30 organic results, plus the project's own result when it ranks deeper" })
  resultList!: SerpResultView[];
  @ApiProperty({ type: [DroppedDomainView], description: 'Domains of the previous top 30 with no result in resultList' })
  droppedDomains!: DroppedDomainView[];
  @ApiProperty({ description: 'Whether a previous successful check of the keyword exists to compare with' }) hasPreviousData!: boolean;
  @ApiProperty({ type: [AiOverviewSourceView] }) aiOverviewResults!: AiOverviewSourceView[];
  @ApiProperty() aiContainsOurDomain!: boolean;
}

class PositionHistoryResponse {
  @ApiProperty() success!: boolean;
  @ApiProperty({ type: PositionHistoryView }) data!: PositionHistoryView;
}

const KEYWORD_UPDATE_NOT_FOUND = 'Keyword update not found';

@ApiTags('Ranking data')
@ApiBearerAuth()
@Controller('api/projects/position-history')
export class PositionHistoryController {
  constructor(
    private readonly access: ProjectAccess,
    private readonly contents: ProjectContentRepository,
    private readonly history: PositionHistoryReader,
  ) {}

  /**
   * The result page of one check, compared with the keyword's previous successful check.
   * Public when the project is shared. A failed check answers 200 with `status: failed`, its reason
   * and empty lists: the id is a real keyword update (keyword-updates lists it), so 404 would be a lie.
   */
  @Get()
  @PublicWhenShared()
  @ApiOkResponse({ type: PositionHistoryResponse })
  async get(
    @CurrentCaller() caller: Caller,
    @Query() params: PositionHistoryParams,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<PositionHistoryResponse> {
    const checkId = params.keywordUpdateId;
    const history = this.history.forCaller(clientGone(reply));
    const location = await history.locate(checkId);
    // "Not yours" and "does not exist" must read the same, or the answer tells whether another
    // account's check id exists: the same 404 for a key, the same 401 without one.
    if (!location) {
      if (caller.kind === 'anonymous') throw new UnauthorizedException({ message: MISSING_KEY });
      throw notFound(KEYWORD_UPDATE_NOT_FOUND);
    }
    const { project } = await this.access.readable(caller, location.projectId).catch((error: unknown) => {
      throw error instanceof DomainError && error.kind === 'not-found' ? notFound(KEYWORD_UPDATE_NOT_FOUND) : error;
    });
    // A keyword removed from the project takes its history with it, as it does in keyword-updates.
    const keyword = (await this.contents.load(project.projectId)).keywords.find((k) => k.keywordId === location.keywordId);
    const snapshot = keyword && (await history.snapshot(checkId, location));
    if (!keyword || !snapshot) throw notFound(KEYWORD_UPDATE_NOT_FOUND);

    const ours = ourDomains(project.settings);
    const succeeded = snapshot.outcome.status === 'success';
    const { resultList, droppedDomains } = succeeded
      ? compareSnapshots(snapshot.results, snapshot.previousResults, snapshot.outcome.position)
      : { resultList: [], droppedDomains: [] };
    const aiOverviewResults = snapshot.aiOverview.map((source) => ({ ...source, isOurDomain: ours.matches(source.domain) }));
    return {
      success: true,
      data: {
        keywordId: keyword.keywordId,
        keywordValue: keyword.value,
        date: location.checkedAt.toISOString(),
        status: succeeded ? 'success' : 'failed',
        failureReason: succeeded ? null : snapshot.outcome.failureReason,
        source: succeeded ? snapshot.outcome.source || 'browser' : null,
        resultList,
        droppedDomains,
        hasPreviousData: snapshot.previousResults !== null,
        aiOverviewResults,
        aiContainsOurDomain: aiOverviewResults.some((source) => source.isOurDomain),
      },
    };
  }
}
