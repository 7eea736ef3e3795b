import { clientGone } from '../../platform/http/client-gone';
import { Controller, Get, Inject, Query, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { Readable } from 'node:stream';
import { ApiBearerAuth, ApiExtraModels, ApiOkResponse, ApiProperty, ApiPropertyOptional, ApiTags, getSchemaPath } from '@nestjs/swagger';
import { IsOptional, IsString, ValidateBy } from 'class-validator';
import type { TrackedKeyword } from '@rank/projects/domain/project-content.events';
import { normaliseKeyword } from '@rank/domain/keyword-text';
import { isCountryCode, isLanguageCode } from '@rank/domain/iso-codes';
import { PublicWhenShared } from '../../platform/auth/access.decorators';
import { Caller, CurrentCaller } from '../../platform/auth/caller';
import { CLOCK, Clock } from '@rank/platform/tokens';
import { ProjectAccess } from '@rank/projects/project-access';
import { ProjectContentRepository } from '@rank/projects/workspace.repository';
import { resolveDayWindow } from '@rank/tracking/reads/shared/day-window';
import { KeywordRefView, KeywordUpdateView } from '@rank/tracking/reads/shared/keyword-update.view';
import { keywordUpdatesJson } from '@rank/tracking/reads/keyword-updates/keyword-updates-json';
import { OptionalCalendarDateQuery, OptionalEnumQuery, OptionalTextQuery, RequiredObjectIdQuery } from './query-fields';
import { orderKeywords, SORT_FIELDS, SORT_ORDERS, SortField, SortOrder } from '@rank/tracking/reads/keyword-updates/keyword-order';
import {
  Aggregation,
  AGGREGATIONS,
  KeywordUpdateRows,
  KeywordUpdatesReader,
} from '@rank/tracking/reads/keyword-updates/keyword-updates.reader';
import { ProjectSearchVolumes } from '../../research/project-search-volumes';

const isCode = (test: (code: string) => boolean, what: string) =>
  ValidateBy({
    name: 'isCode',
    validator: {
      validate: (value: unknown) => typeof value === 'string' && test(value.trim()),
      defaultMessage: () => `$property must be ${what}`,
    },
  });

class KeywordUpdatesParams {
  @RequiredObjectIdQuery()
  projectId!: string;

  @OptionalCalendarDateQuery('First day (UTC), included; default 30 days before endDate')
  startDate?: string;

  @OptionalCalendarDateQuery('Last day (UTC), included; default today')
  endDate?: string;

  @OptionalEnumQuery(
    AGGREGATIONS,
    'daily',
    'daily: one update per day (latest successful, else latest failed); weekly (ISO weeks) / monthly: the latest successful check of each period',
  )
  aggregation?: Aggregation;

  @OptionalTextQuery(200, 'Case-insensitive substring of the keyword')
  search?: string;

  @ApiPropertyOptional({ example: 'US', description: 'Only keywords of this country (ISO 3166-1 alpha-2, any case)' })
  @IsOptional()
  @IsString()
  @isCode(isCountryCode, 'an ISO 3166-1 alpha-2 country code such as US')
  geoCode?: string;

  @ApiPropertyOptional({ example: 'en', description: 'Only keywords of this language (ISO 639-1, any case)' })
  @IsOptional()
  @IsString()
  @isCode(isLanguageCode, 'an ISO 639-1 language code such as en')
  langCode?: string;

  @OptionalEnumQuery(
    SORT_FIELDS,
    undefined,
    'Without it, keywords come in the order they were added. position: the latest successful update in the window; keywords not ranking or without one come last in both orders',
  )
  sortBy?: SortField;

  @OptionalEnumQuery(SORT_ORDERS, 'desc')
  sortOrder?: SortOrder;
}

class RankedKeywordView extends KeywordRefView {
  @ApiProperty({
    type: 'integer',
    nullable: true,
    description: 'Average monthly searches; null while no volume data exists for the keyword',
  })
  avgMonthlySearches!: number | null;
}

class KeywordUpdatesEntry {
  @ApiProperty({ type: RankedKeywordView }) keyword!: RankedKeywordView;
  @ApiProperty({ type: [KeywordUpdateView], description: 'Oldest first; empty when the keyword has no check in the window' })
  updates!: KeywordUpdateView[];
}

@ApiExtraModels(KeywordUpdatesEntry)
class KeywordUpdatesResponse {
  @ApiProperty() success!: boolean;
  @ApiProperty({
    type: 'object',
    additionalProperties: { $ref: getSchemaPath(KeywordUpdatesEntry) },
    description: 'Keyed by keyword id. JSON objects keep their insertion order, and the keys are inserted in the requested sort order',
  })
  data!: Record<string, KeywordUpdatesEntry>;
}

/** A keyword without a check in the window: an empty `updates` array. */
const NO_UPDATES = Buffer.alloc(0);

/** A keyword's matches for the text and locale filters (all optional). */
function keywordFilter(params: KeywordUpdatesParams): ((k: TrackedKeyword) => boolean) | undefined {
  const search = params.search === undefined ? undefined : normaliseKeyword(params.search) || undefined;
  const geoCode = params.geoCode?.trim().toUpperCase();
  const langCode = params.langCode?.trim().toLowerCase();
  if (!search && !geoCode && !langCode) return undefined;
  return (k) => (!search || k.value.includes(search)) && (!geoCode || k.geoCode === geoCode) && (!langCode || k.langCode === langCode);
}

@ApiTags('Ranking data')
@ApiBearerAuth()
@Controller('api/projects/keyword-updates')
export class KeywordUpdatesController {
  constructor(
    private readonly access: ProjectAccess,
    private readonly contents: ProjectContentRepository,
    private readonly updates: KeywordUpdatesReader,
    private readonly volumes: ProjectSearchVolumes,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /**
   * The project's keywords with their dated check results. Public when the project is shared.
   * Streamed: a year of a big project's updates is tens of MB of JSON, written a hundred keywords at a time.
   */
  @Get()
  @PublicWhenShared()
  @ApiOkResponse({ type: KeywordUpdatesResponse })
  async list(@CurrentCaller() caller: Caller, @Query() params: KeywordUpdatesParams, @Res() reply: FastifyReply): Promise<void> {
    const window = resolveDayWindow(params, this.clock.now());
    const { project } = await this.access.readable(caller, params.projectId);
    // The event-sourced project is the source of truth for which keywords are tracked now.
    const all = (await this.contents.load(project.projectId)).keywords;
    const filter = keywordFilter(params);
    const keywords = filter ? all.filter(filter) : all;
    const byKeyword: KeywordUpdateRows =
      keywords.length === 0
        ? new Map()
        : await this.updates
            .forCaller(clientGone(reply))
            .run(project.projectId, window, params.aggregation ?? 'daily', filter ? keywords.map((k) => k.keywordId) : undefined);
    // Volumes are market data of their own context: one separate lookup (of the whole project's
    // keywords, kept while they and the stored volumes are unchanged), merged here.
    const volumes = await this.volumes.of(project.projectId, all);

    const sortable = keywords.map((keyword) => {
      const picks = byKeyword.get(keyword.keywordId);
      return {
        keyword,
        latestPosition: picks?.latestPosition ?? null,
        volume: volumes.get(keyword.keywordId) ?? null,
        updatesJson: picks?.updatesJson ?? NO_UPDATES,
      };
    });
    const ordered = orderKeywords(sortable, params.sortBy, params.sortOrder ?? 'desc').map(({ keyword, volume, updatesJson }) => ({
      keyword,
      avgMonthlySearches: volume,
      updatesJson,
    }));
    await reply.type('application/json; charset=utf-8').send(Readable.from(keywordUpdatesJson(ordered)));
  }
}
