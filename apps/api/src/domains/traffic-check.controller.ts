import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiProperty, ApiTags } from '@nestjs/swagger';
import { normaliseDomain } from '@rank/domain/domain-name';
import { TrafficCheck } from '@rank/domains/traffic-check';
import { AccountCaller, CurrentAccount } from '../platform/auth/caller';
import { RateLimits } from '@rank/platform/rate-limits/rate-limits';
import { RequiredDomainField } from './domain-fields';
import { EngagedTrafficDto, PageSpeedSummaryDto } from './domain-data.dto';

class TrafficCheckBody {
  @RequiredDomainField('Normalised: scheme, www. and path are stripped')
  domain!: string;
}

class TrafficCheckResponse {
  @ApiProperty() success!: boolean;
  @ApiProperty({ example: 'example.com' }) domain!: string;
  @ApiProperty({ type: EngagedTrafficDto, nullable: true, description: 'null when the traffic provider has no information' })
  data!: EngagedTrafficDto | null;
  @ApiProperty({ type: PageSpeedSummaryDto, nullable: true, description: 'null when page speed could not be measured' })
  pagespeed!: PageSpeedSummaryDto | null;
  @ApiProperty({ type: 'integer', minimum: 0, description: "What is left of the account's 20-per-60-s window after this call" })
  remaining!: number;
}

@ApiTags('Keyword research and live checks')
@ApiBearerAuth()
@Controller('api/tools/traffic-check')
export class TrafficCheckController {
  constructor(
    private readonly trafficCheck: TrafficCheck,
    private readonly limits: RateLimits,
  ) {}

  /** A domain's traffic and page speed: cached (30 days) at once, else fetched live. Providers that fail give null, never an error. */
  @Post()
  @HttpCode(200)
  @ApiOkResponse({ type: TrafficCheckResponse })
  async check(@CurrentAccount() caller: AccountCaller, @Body() body: TrafficCheckBody): Promise<TrafficCheckResponse> {
    const { remaining } = await this.limits.take('trafficCheck', caller.accountId);
    const answer = await this.trafficCheck.check(caller.accountId, normaliseDomain(body.domain)!);
    return { success: true, ...answer, remaining };
  }
}
