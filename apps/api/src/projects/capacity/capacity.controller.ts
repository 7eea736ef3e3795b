import { Controller, Get, Inject } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiProperty, ApiTags } from '@nestjs/swagger';
import { activeApiKeys } from '@rank/accounts/domain/account';
import type { PlanCatalogue } from '@rank/accounts/domain/plans';
import { checkCost, refreshesPerMonth } from '@rank/projects/domain/project-settings';
import { LIMITS } from '@rank/domain/limits';
import { AccountCaller, CurrentAccount } from '../../platform/auth/caller';
import { CLOCK, Clock, PLAN_CATALOGUE } from '@rank/platform/tokens';
import { ProjectContentRepository, WorkspaceRepository } from '@rank/projects/workspace.repository';
import { NewDomainAllowances } from '@rank/accounts/new-domain-allowances';
import { RateLimits } from '@rank/platform/rate-limits/rate-limits';

const int = { type: 'integer', minimum: 0 } as const;

class ApiKeysLimit {
  @ApiProperty(int) limit!: number;
  @ApiProperty(int) used!: number;
}
class PerMinuteWindow {
  @ApiProperty(int) perMinute!: number;
  @ApiProperty({ ...int, description: 'Seconds' }) windowSeconds!: number;
  @ApiProperty({ ...int, description: 'Calls left in the current window' }) remaining!: number;
}
class PerMinuteAndHour {
  @ApiProperty(int) perMinute!: number;
  @ApiProperty(int) perHour!: number;
  @ApiProperty({ ...int, description: 'Calls left now (the tighter of the two windows)' }) remaining!: number;
}
class NewDomainsAllowance {
  @ApiProperty(int) limit!: number;
  @ApiProperty(int) used!: number;
  @ApiProperty(int) remaining!: number;
  @ApiProperty({
    type: 'integer',
    nullable: true,
    minimum: 0,
    description: 'Seconds until the allowance clears if no new domain is counted; null when none is counted',
  })
  resetsInSeconds!: number | null;
  @ApiProperty({ type: [String], description: 'The paths that count new domains' }) appliesTo!: string[];
}
class RateLimitsView {
  @ApiProperty({ type: PerMinuteWindow }) serpCheck!: PerMinuteWindow;
  @ApiProperty({ type: PerMinuteWindow }) trafficCheck!: PerMinuteWindow;
  @ApiProperty({ type: PerMinuteAndHour }) keywordResearch!: PerMinuteAndHour;
  @ApiProperty({ type: PerMinuteAndHour }) domainReads!: PerMinuteAndHour;
  @ApiProperty({ type: NewDomainsAllowance }) newDomainsPerDay!: NewDomainsAllowance;
}
class CapacityLimits {
  @ApiProperty(int) keywordsPerProject!: number;
  // Declared as a nullable integer: a schema of type null alone made typed clients drop the field.
  @ApiProperty({ type: 'integer', nullable: true, description: 'Projects allowed; null: unlimited' }) projects!: number | null;
  @ApiProperty({ type: ApiKeysLimit }) apiKeys!: ApiKeysLimit;
  @ApiProperty(int) competitorsPerRequest!: number;
  @ApiProperty({ type: RateLimitsView }) rateLimits!: RateLimitsView;
}

class CapacityResponse {
  @ApiProperty({ ...int, description: 'Monthly SERP-check tokens of the plan' }) total!: number;
  @ApiProperty({ ...int, description: 'keywords x refreshes per month (x2 when serpTop is 100), over all projects' }) booked!: number;
  @ApiProperty({ type: 'integer', description: 'total - booked' }) available!: number;
  @ApiProperty(int) projects!: number;
  @ApiProperty(int) keywords!: number;
  @ApiProperty() isTrial!: boolean;
  @ApiProperty() plan!: string;
  @ApiProperty({ type: CapacityLimits }) limits!: CapacityLimits;
}

@ApiTags('Account')
@ApiBearerAuth()
@Controller('api/user/capacity')
export class CapacityController {
  constructor(
    private readonly workspaces: WorkspaceRepository,
    private readonly contents: ProjectContentRepository,
    private readonly allowances: NewDomainAllowances,
    private readonly rateLimits: RateLimits,
    @Inject(PLAN_CATALOGUE) private readonly plans: PlanCatalogue,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** Read live on every call. The spec shows no `success` field here, so there is none. */
  @Get()
  @ApiOkResponse({ type: CapacityResponse })
  async capacity(@CurrentAccount() caller: AccountCaller): Promise<CapacityResponse> {
    const { projects } = await this.workspaces.load(caller.accountId);
    let keywords = 0;
    let booked = 0;
    for (const project of projects) {
      const count = (await this.contents.load(project.projectId)).keywords.length;
      keywords += count;
      booked += count * refreshesPerMonth(project.settings) * checkCost(project.settings.serpTop);
    }
    const total = this.plans.find(caller.account.plan)?.monthlySerpTokens ?? 0;
    const { rateLimits } = LIMITS;
    // `remaining` is read from the same counters the limited endpoints draw on (shared across replicas with REDIS_URL).
    const remaining = async (bucket: 'serpCheck' | 'trafficCheck' | 'keywordResearch' | 'domainReads') => ({
      remaining: await this.rateLimits.remaining(bucket, caller.accountId),
    });
    return {
      total,
      booked,
      available: total - booked,
      projects: projects.length,
      keywords,
      isTrial: caller.account.isTrial,
      plan: caller.account.plan,
      limits: {
        keywordsPerProject: LIMITS.keywordsPerProject,
        projects: null,
        apiKeys: { limit: LIMITS.apiKeysPerAccount, used: activeApiKeys(caller.account).length },
        competitorsPerRequest: LIMITS.competitorsPerRequest,
        rateLimits: {
          serpCheck: { ...rateLimits.serpCheck, ...(await remaining('serpCheck')) },
          trafficCheck: { ...rateLimits.trafficCheck, ...(await remaining('trafficCheck')) },
          keywordResearch: { ...rateLimits.keywordResearch, ...(await remaining('keywordResearch')) },
          domainReads: { ...rateLimits.domainReads, ...(await remaining('domainReads')) },
          newDomainsPerDay: {
            ...(await this.allowances.usage(caller.accountId, this.clock.now())),
            appliesTo: [...rateLimits.newDomainsPerDay.appliesTo],
          },
        },
      },
    };
  }
}
