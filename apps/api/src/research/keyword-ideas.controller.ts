import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiProperty, ApiPropertyOptional, ApiTags } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsOptional, IsString, ValidateBy } from 'class-validator';
import { isCountryCode, isLanguageCode } from '@rank/domain/iso-codes';
import { RateLimits } from '@rank/platform/rate-limits/rate-limits';
import { ProjectAccess } from '@rank/projects/project-access';
import { ProjectContentRepository } from '@rank/projects/workspace.repository';
import { COMPETITION_LEVELS, Competition } from '@rank/research/domain/volume.events';
import { IdeasError, KeywordIdeas } from '@rank/research/ideas/keyword-ideas';
import { RefusedWhenSuspended } from '../platform/auth/access.decorators';
import { AccountCaller, CurrentAccount } from '../platform/auth/caller';
import { ObjectIdField, TWO_LETTER_CODE_PATTERN } from '../platform/http/validators';

const isCode = (test: (code: string) => boolean, what: string) =>
  ValidateBy({
    name: 'isCode',
    validator: {
      validate: (v: unknown) => typeof v === 'string' && v.length === 2 && test(v),
      defaultMessage: () => `$property must be ${what}`,
    },
  });

class KeywordIdeasBody {
  @ObjectIdField()
  projectId!: string;

  @ApiPropertyOptional({
    example: 'US',
    default: 'US',
    pattern: TWO_LETTER_CODE_PATTERN,
    description: 'ISO 3166-1 alpha-2 country, any case',
  })
  @IsOptional()
  @Transform(({ value }) => (typeof value === 'string' ? value.trim().toUpperCase() : value))
  @IsString()
  @isCode(isCountryCode, 'an ISO 3166-1 alpha-2 country code such as US')
  geo?: string;

  @ApiPropertyOptional({ example: 'en', default: 'en', pattern: TWO_LETTER_CODE_PATTERN, description: 'ISO 639-1 language, any case' })
  @IsOptional()
  @Transform(({ value }) => (typeof value === 'string' ? value.trim().toLowerCase() : value))
  @IsString()
  @isCode(isLanguageCode, 'an ISO 639-1 language code such as en')
  lang?: string;
}

class KeywordIdeaView {
  @ApiProperty({ example: 'trail running shoes' }) keyword!: string;
  @ApiProperty({ type: 'integer', nullable: true, description: 'null when only autocomplete answered' }) avgMonthlySearches!: number | null;
  @ApiProperty({ enum: COMPETITION_LEVELS, nullable: true }) competition!: Competition | null;
}

class KeywordIdeasResponse {
  @ApiProperty() success!: boolean;
  @ApiProperty({ type: [KeywordIdeaView], description: 'Highest volume first; tracked keywords are left out; empty means no data now' })
  ideas!: KeywordIdeaView[];
  @ApiPropertyOptional({
    enum: ['upstream_error', 'service_unavailable'],
    description:
      'upstream_error: the provider answered with an error or a malformed body; service_unavailable: no provider and autocomplete failed, or the provider was unreachable or slower than 30 s',
  })
  error?: IdeasError;
}

@ApiTags('Keyword research')
@ApiBearerAuth()
@Controller('api/projects/keyword-ideas')
export class KeywordIdeasController {
  constructor(
    private readonly access: ProjectAccess,
    private readonly contents: ProjectContentRepository,
    private readonly ideas: KeywordIdeas,
    private readonly limits: RateLimits,
  ) {}

  /**
   * Keyword ideas seeded from the project's keywords and domain. Needs an active subscription;
   * shares a rate limit with keyword-research (15 a minute, 150 an hour per account).
   */
  @Post()
  @HttpCode(200)
  @RefusedWhenSuspended()
  @ApiOkResponse({ type: KeywordIdeasResponse })
  async suggest(@CurrentAccount() caller: AccountCaller, @Body() body: KeywordIdeasBody): Promise<KeywordIdeasResponse> {
    const { project } = await this.access.owned(caller, body.projectId);
    await this.limits.take('keywordResearch', caller.accountId);
    const { keywords } = await this.contents.load(project.projectId);
    const answer = await this.ideas.forProject({
      geoCode: body.geo ?? 'US',
      langCode: body.lang ?? 'en',
      domain: project.settings.domain,
      tracked: keywords,
    });
    return { success: true, ...answer };
  }
}
