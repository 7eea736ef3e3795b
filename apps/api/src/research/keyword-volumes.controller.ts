import { Controller, Get, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiExtraModels, ApiOkResponse, ApiProperty, ApiPropertyOptional, ApiTags, getSchemaPath } from '@nestjs/swagger';
import { IsOptional, ValidateBy } from 'class-validator';
import { notFound } from '@rank/domain/domain-error';
import { isObjectId } from '@rank/domain/object-id';
import { ProjectAccess } from '@rank/projects/project-access';
import { ProjectContentRepository } from '@rank/projects/workspace.repository';
import { COMPETITION_LEVELS, Competition } from '@rank/research/domain/volume.events';
import { KeywordVolumes } from '@rank/research/keyword-volumes';
import { averageMonthlySearches } from '@rank/research/domain/twelve-months';
import { CompactVolume, compactVolume } from '@rank/research/reads/volume-views';
import { PublicWhenShared } from '../platform/auth/access.decorators';
import { Caller, CurrentCaller } from '../platform/auth/caller';
import { OBJECT_ID_PATTERN } from '../platform/http/validators';
import { RequiredObjectIdQuery } from '../tracking/reads/query-fields';

class KeywordVolumesParams {
  @RequiredObjectIdQuery()
  projectId!: string;

  @ApiPropertyOptional({
    example: '6740a1b2c3d4e5f601234568',
    pattern: OBJECT_ID_PATTERN,
    description: 'A keyword of the project: single mode, its whole volume history',
  })
  @IsOptional()
  @ValidateBy({
    name: 'isObjectId',
    validator: { validate: (v: unknown) => isObjectId(v), defaultMessage: () => 'keywordId must be a 24-character hex id' },
  })
  keywordId?: string;
}

class CompactVolumeView implements CompactVolume {
  @ApiProperty({ description: 'Keyword text' }) v!: string;
  @ApiProperty({ description: 'Country (ISO 3166-1 alpha-2)' }) g!: string;
  @ApiProperty({ description: 'Language (ISO 639-1)' }) l!: string;
  @ApiProperty({ enum: ['dataforseo', 'google-ads'], description: 'The provider' }) s!: string;
  @ApiProperty({ type: 'integer', nullable: true, description: "The latest month's volume" }) lv!: number | null;
  @ApiProperty({
    type: 'integer',
    isArray: true,
    minItems: 12,
    maxItems: 12,
    description: 'The 12 months up to the latest with a figure, oldest first; a month without one is 0',
  })
  tr!: number[];
  @ApiProperty({ type: 'integer', nullable: true, description: 'The average of the months of tr that have a figure, rounded' }) am!:
    number | null;
  @ApiProperty({ type: 'integer', nullable: true, minimum: 0, maximum: 100, description: 'Competition index 0–100' }) ci!: number | null;
  @ApiProperty({ type: Number, nullable: true, description: 'Low top-of-page bid (USD)' }) cl!: number | null;
  @ApiProperty({ type: Number, nullable: true, description: 'High top-of-page bid (USD)' }) ch!: number | null;
}

class MonthView {
  @ApiProperty({ type: 'integer', example: 2026 }) year!: number;
  @ApiProperty({ type: 'integer', minimum: 1, maximum: 12, example: 2, description: '1–12' }) month!: number;
  @ApiProperty({ type: 'integer', minimum: 0, example: 1300 }) value!: number;
}

class KeywordVolumeView {
  @ApiProperty() keywordId!: string;
  @ApiProperty() keyword!: string;
  @ApiProperty() geoCode!: string;
  @ApiProperty() langCode!: string;
  @ApiProperty({ enum: ['dataforseo', 'google-ads'] }) source!: string;
  @ApiProperty({ type: 'integer', nullable: true }) avgMonthlySearches!: number | null;
  @ApiProperty({ enum: COMPETITION_LEVELS, nullable: true }) competition!: Competition | null;
  @ApiProperty({ type: 'integer', nullable: true, minimum: 0, maximum: 100, description: '0–100' }) competitionIndex!: number | null;
  @ApiProperty({ type: Number, nullable: true, description: 'USD' }) cpcLow!: number | null;
  @ApiProperty({ type: Number, nullable: true, description: 'USD' }) cpcHigh!: number | null;
  @ApiProperty({ example: 'USD' }) currency!: string;
  @ApiProperty({ type: [MonthView], description: 'Every stored month, oldest first' }) history!: MonthView[];
  @ApiProperty({ format: 'date-time' }) fetchedAt!: string;
}

@ApiExtraModels(CompactVolumeView, KeywordVolumeView)
class KeywordVolumesResponse {
  @ApiProperty() success!: boolean;
  @ApiProperty({
    oneOf: [
      {
        type: 'object',
        additionalProperties: { $ref: getSchemaPath(CompactVolumeView) },
        description: 'Bulk mode: keyed by keyword id, only keywords with data',
      },
      { $ref: getSchemaPath(KeywordVolumeView), description: 'Single mode' },
      { type: 'null', description: 'Single mode, a keyword without data' },
    ],
  })
  data!: Record<string, CompactVolumeView> | KeywordVolumeView | null;
}

@ApiTags('Ranking data')
@ApiBearerAuth()
@Controller('api/projects/keyword-volumes')
export class KeywordVolumesController {
  constructor(
    private readonly access: ProjectAccess,
    private readonly contents: ProjectContentRepository,
    private readonly volumes: KeywordVolumes,
  ) {}

  /** Search volumes of the project's keywords (market data). Public when the project is shared. */
  @Get()
  @PublicWhenShared()
  @ApiOkResponse({ type: KeywordVolumesResponse })
  async get(@CurrentCaller() caller: Caller, @Query() params: KeywordVolumesParams): Promise<KeywordVolumesResponse> {
    const { project } = await this.access.readable(caller, params.projectId);
    const keywords = (await this.contents.load(project.projectId)).keywords;
    if (params.keywordId === undefined) {
      const data: Record<string, CompactVolumeView> = {};
      const byId = await this.volumes.ofKeywords(keywords);
      for (const k of keywords) {
        const volume = byId.get(k.keywordId);
        if (volume) data[k.keywordId] = compactVolume(volume);
      }
      return { success: true, data };
    }
    const keyword = keywords.find((k) => k.keywordId === params.keywordId);
    if (!keyword) throw notFound('Keyword not found in this project');
    const volume = (await this.volumes.ofKeywords([keyword])).get(keyword.keywordId);
    if (!volume) return { success: true, data: null };
    const history = await this.volumes.history({ geoCode: keyword.geoCode, langCode: keyword.langCode, keyword: keyword.value });
    return {
      success: true,
      data: {
        keywordId: keyword.keywordId,
        keyword: keyword.value,
        geoCode: keyword.geoCode,
        langCode: keyword.langCode,
        source: volume.source,
        avgMonthlySearches: averageMonthlySearches(volume),
        competition: volume.competition,
        competitionIndex: volume.competitionIndex,
        cpcLow: volume.cpcLow,
        cpcHigh: volume.cpcHigh,
        currency: volume.currency,
        history,
        fetchedAt: volume.fetchedAt,
      },
    };
  }
}
