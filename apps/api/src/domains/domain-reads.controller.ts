import { Controller, Get, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiExtraModels, ApiOkResponse, ApiProperty, ApiTags, getSchemaPath } from '@nestjs/swagger';
import { normaliseDomain } from '@rank/domain/domain-name';
import { DomainReads } from '@rank/domains/reads/domain-reads';
import { AccountCaller, CurrentAccount } from '../platform/auth/caller';
import { CompetitorsQuery, RequiredDomainField } from './domain-fields';
import { CompetitorTrafficDto, CruxOriginPointDto, CruxPageHistoryDto, PageSpeedRecordDto, TrafficDto } from './domain-data.dto';
import { RateLimits } from '@rank/platform/rate-limits/rate-limits';

class DomainParams {
  @RequiredDomainField('Normalised: www. stripped, lowercased')
  domain!: string;
}

class CompetitorsParams extends DomainParams {
  @CompetitorsQuery()
  competitors!: string[];
}

class WebTrafficResponse {
  @ApiProperty() success!: boolean;
  @ApiProperty({ description: 'false (with data null) when the domain has never been fetched' }) exists!: boolean;
  @ApiProperty({ type: TrafficDto, nullable: true, description: 'null without traffic' })
  data!: TrafficDto | null;
}

class PageSpeedResponse {
  @ApiProperty() success!: boolean;
  @ApiProperty({ type: PageSpeedRecordDto, nullable: true, description: 'null when not cached' })
  data!: PageSpeedRecordDto | null;
}

class CruxHistoryResponse {
  @ApiProperty() success!: boolean;
  @ApiProperty({ type: [CruxOriginPointDto], description: "The origin's series, oldest first" })
  data!: CruxOriginPointDto[];
  @ApiProperty({ type: [CruxPageHistoryDto], description: "The domain's known pages that have history" })
  pages!: CruxPageHistoryDto[];
}

@ApiExtraModels(CompetitorTrafficDto)
class CompetitorsFilteredResponse {
  @ApiProperty() success!: boolean;
  @ApiProperty({
    type: 'object',
    additionalProperties: { $ref: getSchemaPath(CompetitorTrafficDto) },
    description: 'Keyed by competitor domain, for the competitors kept',
  })
  data!: Record<string, CompetitorTrafficDto>;
  @ApiProperty({ type: [String], description: "The competitors kept: at most 6, 3 above and 3 below the main domain's traffic" })
  filtered!: string[];
  @ApiProperty({ type: 'integer', nullable: true, description: "The main domain's totalVisits; null without cached traffic" })
  mainDomainVisits!: number | null;
  @ApiProperty({ type: 'integer', minimum: 0, description: 'How many competitors were asked for' }) totalCompetitors!: number;
}

/** Reads of cached domain data: never a fetch; an API key is needed (never public). */
@ApiTags('Performance')
@ApiBearerAuth()
@Controller('api/projects')
export class DomainReadsController {
  constructor(
    private readonly reads: DomainReads,
    private readonly limits: RateLimits,
  ) {}

  @Get('webtraffic')
  @ApiOkResponse({ type: WebTrafficResponse })
  async webTraffic(@CurrentAccount() caller: AccountCaller, @Query() params: DomainParams): Promise<WebTrafficResponse> {
    await this.limits.take('domainReads', caller.accountId);
    return { success: true, ...(await this.reads.webTraffic(caller.accountId, normaliseDomain(params.domain)!)) };
  }

  @Get('pagespeed')
  @ApiOkResponse({ type: PageSpeedResponse })
  async pageSpeed(@CurrentAccount() caller: AccountCaller, @Query() params: DomainParams): Promise<PageSpeedResponse> {
    await this.limits.take('domainReads', caller.accountId);
    return { success: true, ...(await this.reads.pageSpeed(caller.accountId, normaliseDomain(params.domain)!)) };
  }

  @Get('crux-history')
  @ApiOkResponse({ type: CruxHistoryResponse })
  async cruxHistory(@CurrentAccount() caller: AccountCaller, @Query() params: DomainParams): Promise<CruxHistoryResponse> {
    await this.limits.take('domainReads', caller.accountId);
    return { success: true, ...(await this.reads.cruxHistory(caller.accountId, normaliseDomain(params.domain)!)) };
  }

  @Get('competitors-filtered')
  @ApiOkResponse({ type: CompetitorsFilteredResponse })
  async competitorsFiltered(
    @CurrentAccount() caller: AccountCaller,
    @Query() params: CompetitorsParams,
  ): Promise<CompetitorsFilteredResponse> {
    await this.limits.take('domainReads', caller.accountId);
    const competitors = params.competitors.map((c) => normaliseDomain(c)!);
    return { success: true, ...(await this.reads.competitorsFiltered(caller.accountId, normaliseDomain(params.domain)!, competitors)) };
  }
}
