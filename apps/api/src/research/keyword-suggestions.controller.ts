import { Controller, Get, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiProperty, ApiPropertyOptional, ApiTags } from '@nestjs/swagger';
import { ProjectAccess } from '@rank/projects/project-access';
import { ProjectContentRepository } from '@rank/projects/workspace.repository';
import { KeywordSuggestions, KeywordSuggestionsAnswer } from '@rank/research/suggestions/keyword-suggestions';
import { RefusedWhenSuspended } from '../platform/auth/access.decorators';
import { AccountCaller, CurrentAccount } from '../platform/auth/caller';
import { RequiredObjectIdQuery } from '../tracking/reads/query-fields';

class KeywordSuggestionsParams {
  @RequiredObjectIdQuery()
  projectId!: string;
}

class MonthValueView {
  @ApiProperty({ type: 'integer', minimum: 1, maximum: 12, example: 3, description: '1–12' }) month!: number;
  @ApiProperty({ type: 'integer', minimum: 0, example: 1900 }) value!: number;
}

class YearVolumeView {
  @ApiProperty({ type: 'integer', example: 2026 }) year!: number;
  @ApiProperty({ type: [MonthValueView] }) months!: MonthValueView[];
}

class SuggestedPhraseView {
  @ApiProperty({ example: 'trail running shoes' }) phrase!: string;
  @ApiProperty({ type: 'integer', nullable: true, description: "The latest month's searches; null when unknown" }) lastVolume!:
    number | null;
  @ApiProperty({ type: [YearVolumeView], description: 'The monthly history grouped by year, oldest first' }) volume!: YearVolumeView[];
}

class SuggestionsLocaleView {
  @ApiProperty({ example: 'en-US' }) key!: string;
  @ApiProperty({ example: 'en' }) lang!: string;
  @ApiProperty({ example: 'United States', description: "The country's English name" }) region!: string;
  @ApiProperty({ example: 'US' }) geo!: string;
  @ApiProperty({ format: 'date-time' }) lastUpdatedAt!: string;
  @ApiProperty({ type: [SuggestedPhraseView], description: 'Up to 30, highest lastVolume first' }) keywords!: SuggestedPhraseView[];
}

class PrimaryLocaleView {
  @ApiProperty({ example: 'en' }) lang!: string;
  @ApiProperty({ example: 'US' }) geo!: string;
}

class SuggestionsMetaView {
  @ApiProperty({ enum: ['llm', 'autocomplete'] }) seedUsed!: string;
}

class KeywordSuggestionsResponse {
  @ApiPropertyOptional() success?: boolean;
  @ApiProperty({ description: 'false while the first run has not finished (no other fields)' }) ready!: boolean;
  @ApiPropertyOptional() domain?: string;
  @ApiPropertyOptional({ type: PrimaryLocaleView }) primary?: PrimaryLocaleView;
  @ApiPropertyOptional({ type: [SuggestionsLocaleView] }) locales?: SuggestionsLocaleView[];
  @ApiPropertyOptional({ type: [String] }) pages?: string[];
  @ApiPropertyOptional({ type: SuggestionsMetaView }) meta?: SuggestionsMetaView;
  @ApiPropertyOptional({ type: 'integer', minimum: 0 }) runCount?: number;
  @ApiPropertyOptional({ format: 'date-time' }) lastRunAt?: string;
  @ApiPropertyOptional({ type: String, nullable: true, description: 'Why the latest run failed or fell back to autocomplete' }) lastError?:
    string | null;
}

@ApiTags('Keyword research')
@ApiBearerAuth()
@Controller('api/projects/keyword-suggestions')
export class KeywordSuggestionsController {
  constructor(
    private readonly access: ProjectAccess,
    private readonly contents: ProjectContentRepository,
    private readonly suggestions: KeywordSuggestions,
  ) {}

  /** The cached suggestions of the caller's project; generated in the background, never on this request. Needs an active subscription. */
  @Get()
  @RefusedWhenSuspended()
  @ApiOkResponse({ type: KeywordSuggestionsResponse })
  async read(@CurrentAccount() caller: AccountCaller, @Query() params: KeywordSuggestionsParams): Promise<KeywordSuggestionsAnswer> {
    const { project } = await this.access.owned(caller, params.projectId);
    const { keywords } = await this.contents.load(project.projectId);
    return this.suggestions.forProject(project.projectId, keywords);
  }
}
