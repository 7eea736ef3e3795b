import type { AccountStatus } from '../domain/account.events';
import { invalid } from '@rank/domain/domain-error';
import { BALANCE_RULE, isBalance } from '../domain/balance';
import { isObjectId } from '@rank/domain/object-id';

const STATUSES: readonly AccountStatus[] = ['active', 'suspended', 'blocked'];

/** The operator changes plan, trial flag, status or scrape balance. Valid once constructed. */
export class ChangeAccountCommand {
  readonly plan?: string;
  readonly trial?: boolean;
  readonly status?: AccountStatus;
  readonly balance?: number;

  constructor(
    readonly accountId: string,
    input: { plan?: unknown; trial?: unknown; status?: unknown; balance?: unknown },
  ) {
    if (!isObjectId(accountId)) throw invalid('id must be a 24-character hex id');
    if (input.plan !== undefined && typeof input.plan !== 'string') throw invalid('plan must be a string');
    if (input.trial !== undefined && typeof input.trial !== 'boolean') throw invalid('trial must be true or false');
    if (input.status !== undefined && !STATUSES.includes(input.status as AccountStatus))
      throw invalid(`status must be one of ${STATUSES.join(', ')}`);
    if (input.balance !== undefined && !isBalance(input.balance)) throw invalid(BALANCE_RULE);
    if ([input.plan, input.trial, input.status, input.balance].every((v) => v === undefined)) {
      throw invalid('Send at least one of plan, trial, status, balance');
    }
    this.plan = input.plan as string | undefined;
    this.trial = input.trial as boolean | undefined;
    this.status = input.status as AccountStatus | undefined;
    this.balance = input.balance as number | undefined;
  }
}
