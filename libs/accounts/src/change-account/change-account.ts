import { Inject, Injectable } from '@nestjs/common';
import type { PlanCatalogue } from '../domain/plans';
import { invalid } from '@rank/domain/domain-error';
import { CLOCK, Clock, PLAN_CATALOGUE } from '@rank/platform/tokens';
import { AccountRepository } from '../account.repository';
import { AccountView, toAccountView } from '../account.view';
import { ChangeAccountCommand } from './change-account.command';

/** The operator changes an account's plan, trial flag, status or balance (the operator API and the CLI). */
@Injectable()
export class ChangeAccount {
  constructor(
    private readonly accounts: AccountRepository,
    @Inject(PLAN_CATALOGUE) private readonly plans: PlanCatalogue,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async change(command: ChangeAccountCommand): Promise<AccountView> {
    if (command.plan !== undefined && !this.plans.find(command.plan)) throw invalid(`plan must be one of ${this.plans.ids().join(', ')}`);
    const { state } = await this.accounts.handle(
      command.accountId,
      {
        type: 'ChangeAccount',
        plan: command.plan,
        isTrial: command.trial,
        status: command.status,
        virtualBalance: command.balance,
      },
      this.clock.now(),
    );
    if (state.kind !== 'open') throw new Error('a changed account must be open');
    return toAccountView(state);
  }
}
