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

class CapacityResponse {
  @ApiProperty({ description: 'Monthly SERP-check tokens of the plan' }) total!: number;
  @ApiProperty({ description: 'keywords x refreshes per month (x2 when serpTop is 100), over all projects' }) booked!: number;
  @ApiProperty({ description: 'total - booked' }) available!: number;
  @ApiProperty() projects!: number;
  @ApiProperty() keywords!: number;
  @ApiProperty() isTrial!: boolean;
  @ApiProperty() plan!: string;
  @ApiProperty({ description: 'keywordsPerProject, projects (null = unlimited), apiKeys {limit, used}, competitorsPerRequest, rateLimits' })
  limits!: Record<string, unknown>;
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
    const remaining = async (bucket: 'serpCheck' | 'trafficCheck' | 'keywordResearch' | 'domainReads') => ({ remaining: await this.rateLimits.remaining(bucket, caller.accountId) });
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
          newDomainsPerDay: { ...(await this.allowances.usage(caller.accountId, this.clock.now())), appliesTo: [...rateLimits.newDomainsPerDay.appliesTo] },
        },
      },
    };
  }
}
