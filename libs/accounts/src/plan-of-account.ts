import { Logger } from '@nestjs/common';
import type { Plan, PlanCatalogue } from './domain/plans';

const logger = new Logger('Plans');
const reported = new Set<string>();

/**
 * The account's plan in the catalogue, or undefined when the catalogue no longer has it: a
 * `PLANS_FILE` that dropped a plan still held by accounts. Such an account has no API access (403
 * planRequired) and no monthly tokens, so its API calls and scheduled checks stop; nothing else tells
 * the operator why, so the first meeting of each such plan in a process is logged.
 */
export function planOfAccount(plans: PlanCatalogue, account: { accountId: string; plan: string }): Plan | undefined {
  const plan = plans.find(account.plan);
  if (!plan && !reported.has(account.plan)) {
    reported.add(account.plan);
    logger.warn(
      `account ${account.accountId} is on plan "${account.plan}", which the plan catalogue (PLANS_FILE) does not have: ` +
        `its API calls answer 403 planRequired and its projects get no monthly tokens until it is moved to a plan of ${plans.ids().join(', ')}`,
    );
  }
  return plan;
}
