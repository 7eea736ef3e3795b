import { invalid } from '@rank/domain/domain-error';
import { BALANCE_RULE, isBalance } from '../domain/balance';
import { characterCount } from '@rank/domain/text-length';

/** Opens an account with its first API key (named `default`). Valid once constructed. */
export class OpenAccountCommand {
  readonly name: string;
  /** Unset: the catalogue's default plan (`PlanCatalogue.defaultPlanId`). */
  readonly plan: string | undefined;
  readonly trial: boolean;
  readonly balance: number;

  constructor(input: { name?: unknown; plan?: unknown; trial?: unknown; balance?: unknown }) {
    if (input.name !== undefined && (typeof input.name !== 'string' || characterCount(input.name.trim()) > 200))
      throw invalid('name must be a string of at most 200 characters');
    if (input.plan !== undefined && typeof input.plan !== 'string') throw invalid('plan must be a string');
    if (input.trial !== undefined && typeof input.trial !== 'boolean') throw invalid('trial must be true or false');
    if (input.balance !== undefined && !isBalance(input.balance)) throw invalid(BALANCE_RULE);
    this.name = (input.name as string | undefined)?.trim() || 'Account';
    this.plan = input.plan as string | undefined;
    this.trial = (input.trial as boolean | undefined) ?? false;
    this.balance = (input.balance as number | undefined) ?? 0;
  }
}
