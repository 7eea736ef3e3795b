import { Injectable } from '@nestjs/common';
import { allowanceUsage, countDomain, emptyAllowance, NewDomainAllowanceState } from './domain/new-domain-allowance';
import { LIMITS } from '@rank/domain/limits';

/**
 * Each account's new-domain allowance, in this process's memory. The domain endpoints (traffic,
 * page speed, CrUX, competitors) count through `count`; capacity reads `usage`.
 */
@Injectable()
export class NewDomainAllowances {
  private readonly byAccount = new Map<string, NewDomainAllowanceState>();

  count(accountId: string, domain: string, now: Date): void {
    this.byAccount.set(accountId, countDomain(this.byAccount.get(accountId) ?? emptyAllowance(), domain, now.getTime()));
  }

  usage(accountId: string, now: Date) {
    return allowanceUsage(this.byAccount.get(accountId) ?? emptyAllowance(), LIMITS.rateLimits.newDomainsPerDay.limit, now.getTime());
  }
}
