import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiExtraModels, ApiOkResponse, ApiProperty, ApiPropertyOptional, ApiTags, getSchemaPath } from '@nestjs/swagger';
import { Allow, IsInt, IsOptional, Max, Min } from 'class-validator';
import { RateLimits } from '@rank/platform/rate-limits/rate-limits';
import { COMPETITION_LEVELS, Competition } from '@rank/research/domain/volume.events';
import {
  KeywordResearch,
  RESEARCH_LIMIT_DEFAULT,
  RESEARCH_LIMIT_MAX,
  ResearchAnswer,
  SEED_MAX_LENGTH,
} from '@rank/research/ideas/keyword-research';
import { RefusedWhenSuspended } from '../platform/auth/access.decorators';
import { AccountCaller, CurrentAccount } from '../platform/auth/caller';

/** keyword, geo and lang are checked by the research itself: a bad one is an expected failure (200, success false), not a 400. */
class KeywordResearchBody {
  @ApiProperty({
    type: String,
    example: 'running shoes',
    description: `The seed keyword, 1 to ${SEED_MAX_LENGTH} characters; another value is an expected failure (200, success false), not a 400`,
  })
  @Allow()
  keyword!: unknown;

  @ApiPropertyOptional({
    type: String,
    example: 'US',
    default: 'US',
    description: 'ISO 3166-1 alpha-2 country, any case; an unsupported one is an expected failure (200, success false)',
  })
  @Allow()
  geo?: unknown;

  @ApiPropertyOptional({
    type: String,
    example: 'en',
    default: 'en',
    description: 'ISO 639-1 language, any case; an unsupported one is an expected failure (200, success false)',
  })
  @Allow()
  lang?: unknown;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    maximum: RESEARCH_LIMIT_MAX,
    default: RESEARCH_LIMIT_DEFAULT,
    description: 'Keywords in the answer at most',
  })
  @IsOptional()
  @IsInt({ message: 'limit must be a whole number from 1 to 100' })
  @Min(1, { message: 'limit must be a whole number from 1 to 100' })
  @Max(RESEARCH_LIMIT_MAX, { message: 'limit must be a whole number from 1 to 100' })
  limit?: number;
}

class ResearchedKeywordView {
  @ApiProperty() keyword!: string;
  @ApiProperty({ type: 'integer', nullable: true }) avgMonthlySearches!: number | null;
  @ApiProperty({ enum: COMPETITION_LEVELS, nullable: true }) competition!: Competition | null;
  @ApiProperty({ type: 'integer', nullable: true, minimum: 0, maximum: 100, description: '0–100' }) competitionIndex!: number | null;
  @ApiProperty({ type: Number, nullable: true, description: 'Low top-of-page bid, USD' }) cpcLow!: number | null;
  @ApiProperty({ type: Number, nullable: true, description: 'High top-of-page bid, USD' }) cpcHigh!: number | null;
  @ApiProperty({
    type: 'integer',
    isArray: true,
    minItems: 12,
    maxItems: 12,
    description: 'The 12 months up to the latest with a figure, oldest first (0 for a month the provider did not report)',
  })
  trend!: number[];
}

class ResearchSuccessView {
  @ApiProperty({ enum: [true] }) success!: true;
  @ApiProperty() keyword!: string;
  @ApiProperty({ example: 'US' }) geo!: string;
  @ApiProperty({ example: 'en' }) lang!: string;
  @ApiProperty({ enum: ['dataforseo', 'google-ads'] }) source!: string;
  @ApiProperty({ type: [ResearchedKeywordView], description: 'Highest volume first' }) keywords!: ResearchedKeywordView[];
}

class ResearchFailureView {
  @ApiProperty({ enum: [false] }) success!: false;
  @ApiProperty({ description: 'Why: a bad seed, an unsupported country or language, no provider, an upstream error or timeout' })
  message!: string;
}

@ApiTags('Keyword research')
@ApiBearerAuth()
@Controller('api/tools/keyword-research')
@ApiExtraModels(ResearchSuccessView, ResearchFailureView)
export class KeywordResearchController {
  constructor(
    private readonly research: KeywordResearch,
    private readonly limits: RateLimits,
  ) {}

  /**
   * Related keywords of a seed with their figures. Needs an active subscription; shares a rate limit
   * with keyword-ideas (15 a minute, 150 an hour per account). Expected failures are 200 with
   * `success: false` and a message.
   */
  @Post()
  @HttpCode(200)
  @RefusedWhenSuspended()
  @ApiOkResponse({ schema: { oneOf: [{ $ref: getSchemaPath(ResearchSuccessView) }, { $ref: getSchemaPath(ResearchFailureView) }] } })
  async run(@CurrentAccount() caller: AccountCaller, @Body() body: KeywordResearchBody): Promise<ResearchAnswer> {
    await this.limits.take('keywordResearch', caller.accountId);
    return this.research.research({ keyword: body.keyword, geo: body.geo, lang: body.lang, limit: body.limit ?? RESEARCH_LIMIT_DEFAULT });
  }
}
