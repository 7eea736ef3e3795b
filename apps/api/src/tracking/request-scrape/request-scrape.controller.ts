import { Body, Controller, HttpCode, Inject, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiProperty, ApiTags } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, IsArray } from 'class-validator';
import { invalid } from '@rank/domain/domain-error';
import { newObjectId } from '@rank/domain/object-id';
import { AccountRepository } from '@rank/accounts/account.repository';
import { RefusedWhenSuspended } from '../../platform/auth/access.decorators';
import { AccountCaller, CurrentAccount } from '../../platform/auth/caller';
import { IsObjectIdString, OBJECT_ID_PATTERN, ObjectIdField } from '../../platform/http/validators';
import { CLOCK, Clock } from '@rank/platform/tokens';
import { ProjectAccess } from '@rank/projects/project-access';
import { ProjectContentRepository } from '@rank/projects/workspace.repository';

class RequestScrapeBody {
  @ObjectIdField()
  projectId!: string;

  @ApiProperty({
    type: 'array',
    items: { type: 'string', pattern: OBJECT_ID_PATTERN },
    minItems: 1,
    maxItems: 3500,
    description: 'Keywords of the project to check now',
  })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(3500)
  @IsObjectIdString({ each: true })
  keywordIds!: string[];
}

class ScrapeSummary {
  @ApiProperty({ type: 'integer', minimum: 0, description: 'Keyword ids sent' }) total!: number;
  @ApiProperty({ type: 'integer', minimum: 0, description: 'Checks queued (distinct keywords)' }) accepted!: number;
  @ApiProperty({ type: 'integer', minimum: 0, description: 'Ids not queued (repeats within the request)' }) errors!: number;
}

class RequestScrapeResponse {
  @ApiProperty() success!: boolean;
  @ApiProperty() message!: string;
  @ApiProperty({ enum: ['processing'] }) status!: 'processing';
  @ApiProperty({ type: ScrapeSummary }) summary!: ScrapeSummary;
}

/**
 * A fresh SERP check of some keywords, now. Charged at request time (1 credit per keyword, 2 when
 * the project scrapes 100 deep), in the same event that is the scraper's work order, so there is
 * never a charge without work or work without a charge. A check that fails gives its credits back.
 */
@ApiTags('Keywords')
@ApiBearerAuth()
@Controller('api/scrape/new-keywords')
export class RequestScrapeController {
  constructor(
    private readonly access: ProjectAccess,
    private readonly contents: ProjectContentRepository,
    private readonly accounts: AccountRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  @Post()
  @HttpCode(200)
  @RefusedWhenSuspended()
  @ApiOkResponse({ type: RequestScrapeResponse })
  async request(@CurrentAccount() caller: AccountCaller, @Body() body: RequestScrapeBody): Promise<RequestScrapeResponse> {
    const { project } = await this.access.owned(caller, body.projectId);
    const own = new Set((await this.contents.load(project.projectId)).keywords.map((k) => k.keywordId));
    const foreign = body.keywordIds.filter((id) => !own.has(id));
    if (foreign.length > 0) {
      throw invalid(
        `keywordIds must all belong to the project; not in it: ${[...new Set(foreign)].slice(0, 10).join(', ')}${foreign.length > 10 ? ', ...' : ''}`,
      );
    }
    const keywordIds = [...new Set(body.keywordIds)];
    const now = this.clock.now();
    await this.accounts.handle(
      caller.accountId,
      {
        type: 'RequestScrape',
        batchId: newObjectId(now),
        projectId: project.projectId,
        keywordIds,
        serpTop: project.settings.serpTop,
      },
      now,
    );
    return {
      success: true,
      message: `Checking ${keywordIds.length} keyword${keywordIds.length === 1 ? '' : 's'} in the background`,
      status: 'processing',
      summary: { total: body.keywordIds.length, accepted: keywordIds.length, errors: body.keywordIds.length - keywordIds.length },
    };
  }
}
