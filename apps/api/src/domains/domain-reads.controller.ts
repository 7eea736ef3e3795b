import { Controller, Get, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiProperty, ApiTags } from '@nestjs/swagger';
import { normaliseDomain } from '@rank/domain/domain-name';
import { DomainReads } from '@rank/domains/reads/domain-reads';
import { AccountCaller, CurrentAccount } from '../platform/auth/caller';
import { CompetitorsQuery, RequiredDomainField } from './domain-fields';
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
  @ApiProperty({
    nullable: true,
    description:
      '{stats: {domain, totalVisits, fetchedAt}, monthlyVisits: [{domain, month, visits}]} (at most 12 months, oldest first); null without traffic',
  })
  data!: object | null;
}

class PageSpeedResponse {
  @ApiProperty() success!: boolean;
  @ApiProperty({
    nullable: true,
    description:
      'domain, performanceScore, accessibilityScore, bestPracticesScore, seoScore, cruxScore, largestContentfulPaint, firstContentfulPaint, cumulativeLayoutShift, totalBlockingTime, cruxFieldData {LCP, CLS, INP: {p75}}, source, fetchedAt; null when not cached',
  })
  data!: object | null;
}

class CruxHistoryResponse {
  @ApiProperty() success!: boolean;
  @ApiProperty({ type: [Object], description: "The origin's series, oldest first: [{domain, date, lcp: {p75}, cls: {p75}}]" })
  data!: object[];
  @ApiProperty({ type: [Object], description: 'Pages with history: [{url, path, data: [{date, lcp: {p75}}]}]' }) pages!: object[];
}

class CompetitorsFilteredResponse {
  @ApiProperty() success!: boolean;
  @ApiProperty({
    description:
      'Keyed by competitor domain: {stats: {domain, totalVisits, fetchedAt}, monthlyVisits: [{month, visits}], pageSpeed: {cruxScore}}',
  })
  data!: object;
  @ApiProperty({ type: [String], description: "The competitors kept: at most 6, 3 above and 3 below the main domain's traffic" })
  filtered!: string[];
  @ApiProperty({ type: Number, nullable: true }) mainDomainVisits!: number | null;
  @ApiProperty({ description: 'How many competitors were asked for' }) totalCompetitors!: number;
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
