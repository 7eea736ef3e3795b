import { Body, Controller, Delete, HttpCode, Inject, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiProperty, ApiTags } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsString, Matches } from 'class-validator';
import { isCountryCode, isLanguageCode } from '@rank/domain/iso-codes';
import { invalid } from '@rank/domain/domain-error';
import { MAX_KEYWORD_LENGTH, normaliseKeyword } from '@rank/domain/keyword-text';
import { newObjectId } from '@rank/domain/object-id';
import { RefusedWhenSuspended } from '../../platform/auth/access.decorators';
import { AccountCaller, CurrentAccount } from '../../platform/auth/caller';
import { IsObjectIdString, OBJECT_ID_PATTERN, ObjectIdField, TWO_LETTER_CODE_PATTERN } from '../../platform/http/validators';
import { CLOCK, Clock } from '@rank/platform/tokens';
import { ProjectAccess } from '@rank/projects/project-access';
import { ProjectContentRepository } from '@rank/projects/workspace.repository';
import { characterCount } from '@rank/domain/text-length';

/** More than the project limit, so that a request of duplicates can still be sent whole. */
const MAX_KEYWORDS_PER_REQUEST = 10_000;

class AddKeywordsBody {
  @ObjectIdField()
  projectId!: string;

  @ApiProperty({
    type: 'array',
    items: { type: 'string', minLength: 1, maxLength: MAX_KEYWORD_LENGTH },
    maxItems: MAX_KEYWORDS_PER_REQUEST,
    example: ['running shoes', 'trail shoes'],
    description: 'Trimmed, spaces collapsed and lowercased; repeats and keywords the project has are dropped',
  })
  @IsArray()
  @ArrayMaxSize(MAX_KEYWORDS_PER_REQUEST)
  @IsString({ each: true })
  keywords!: string[];

  @ApiProperty({ example: 'US', pattern: TWO_LETTER_CODE_PATTERN, description: 'ISO 3166-1 alpha-2 country, any case' })
  @Transform(({ value }) => (typeof value === 'string' ? value.trim().toUpperCase() : value))
  @IsString()
  @Matches(/^[A-Z]{2}$/, { message: 'geoCode must be an ISO 3166-1 alpha-2 country code such as US' })
  geoCode!: string;

  @ApiProperty({ example: 'en', pattern: TWO_LETTER_CODE_PATTERN, description: 'ISO 639-1 language, any case' })
  @Transform(({ value }) => (typeof value === 'string' ? value.trim().toLowerCase() : value))
  @IsString()
  @Matches(/^[a-z]{2}$/, { message: 'langCode must be an ISO 639-1 language code such as en' })
  langCode!: string;
}

class ProjectKeywordIds {
  @ApiProperty({ example: '6740a1b2c3d4e5f601234567' }) _id!: string;
  @ApiProperty({ type: [String], description: "The ids of all the project's keywords", example: ['6740a1b2c3d4e5f601234568'] })
  keywords!: string[];
}
class ProjectRef {
  @ApiProperty({ example: '6740a1b2c3d4e5f601234567' }) _id!: string;
}
class AddKeywordsResponse {
  @ApiProperty() success!: boolean;
  @ApiProperty({ example: 'Added 2 keywords' }) message!: string;
  @ApiProperty({ type: 'integer', minimum: 0 }) addedCount!: number;
  @ApiProperty({ type: ProjectKeywordIds }) project!: ProjectKeywordIds;
}

class RemoveKeywordsBody {
  @ObjectIdField()
  projectId!: string;

  @ApiProperty({ type: 'array', items: { type: 'string', pattern: OBJECT_ID_PATTERN }, maxItems: MAX_KEYWORDS_PER_REQUEST })
  @IsArray()
  @ArrayMaxSize(MAX_KEYWORDS_PER_REQUEST)
  @IsObjectIdString({ each: true })
  keywordIds!: string[];
}

class RemoveKeywordsResponse {
  @ApiProperty() success!: boolean;
  @ApiProperty({ type: 'integer', minimum: 0 }) removedCount!: number;
  @ApiProperty({ type: ProjectRef }) project!: ProjectRef;
}

/** Tracked keywords. Both calls need an active subscription. */
@ApiTags('Keywords')
@ApiBearerAuth()
@Controller('api/projects/keywords')
export class KeywordsController {
  constructor(
    private readonly access: ProjectAccess,
    private readonly contents: ProjectContentRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /**
   * Duplicates (within the request and against the project) are dropped silently. A request that
   * would pass 3,500 keywords adds nothing and answers KEYWORDS_LIMIT_EXCEEDED with the counts.
   */
  @Post()
  @HttpCode(200)
  @RefusedWhenSuspended()
  @ApiOkResponse({ type: AddKeywordsResponse })
  async add(@CurrentAccount() caller: AccountCaller, @Body() body: AddKeywordsBody): Promise<AddKeywordsResponse> {
    if (!isCountryCode(body.geoCode)) throw invalid(`geoCode must be an ISO 3166-1 alpha-2 country code (got ${body.geoCode})`);
    if (!isLanguageCode(body.langCode)) throw invalid(`langCode must be an ISO 639-1 language code (got ${body.langCode})`);
    const values = body.keywords.map((raw, i) => {
      const value = normaliseKeyword(raw);
      if (value === '') throw invalid(`keywords.${i} must not be empty`);
      if (characterCount(value) > MAX_KEYWORD_LENGTH) throw invalid(`keywords.${i} must be at most ${MAX_KEYWORD_LENGTH} characters`);
      return value;
    });
    const { project } = await this.access.owned(caller, body.projectId);
    const now = this.clock.now();
    const { events, state } = await this.contents.handle(
      project.projectId,
      {
        type: 'AddKeywords',
        values,
        geoCode: body.geoCode,
        langCode: body.langCode,
        keywordIds: values.map(() => newObjectId(now)),
      },
      now,
    );
    const addedCount = events.reduce((n, e) => n + (e.type === 'KeywordsAdded' ? e.data.keywords.length : 0), 0);
    return {
      success: true,
      message: addedCount === 1 ? 'Added 1 keyword' : `Added ${addedCount} keywords`,
      addedCount,
      project: { _id: project.projectId, keywords: state.keywords.map((k) => k.keywordId) },
    };
  }

  /** Ids that are not the project's are ignored: `removedCount` says how many went. */
  @Delete()
  @RefusedWhenSuspended()
  @ApiOkResponse({ type: RemoveKeywordsResponse })
  async remove(@CurrentAccount() caller: AccountCaller, @Body() body: RemoveKeywordsBody): Promise<RemoveKeywordsResponse> {
    const { project } = await this.access.owned(caller, body.projectId);
    const { events } = await this.contents.handle(
      project.projectId,
      { type: 'RemoveKeywords', keywordIds: body.keywordIds },
      this.clock.now(),
    );
    const removedCount = events.reduce((n, e) => n + (e.type === 'KeywordsRemoved' ? e.data.keywordIds.length : 0), 0);
    return { success: true, removedCount, project: { _id: project.projectId } };
  }
}
