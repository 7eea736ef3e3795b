import { Inject, Injectable } from '@nestjs/common';
import type { PlanCatalogue } from '../domain/plans';
import { invalid } from '@rank/domain/domain-error';
import { newObjectId } from '@rank/domain/object-id';
import { issueApiKey } from '../api-keys/api-key-secret';
import { CLOCK, Clock, PLAN_CATALOGUE } from '@rank/platform/tokens';
import { AccountRepository } from '../account.repository';
import { AccountView, toAccountView } from '../account.view';
import { OpenAccountCommand } from './open-account.command';

export interface OpenedAccount {
  account: AccountView;
  /** The full secret of the first key: shown this once, stored only as a hash. */
  apiKey: string;
}

/**
 * The operator opens an account with its first key. A service rather than a route's few lines
 * because the operator API and the CLI share it; the write itself is the usual repository.handle.
 */
@Injectable()
export class OpenAccount {
  constructor(
    private readonly accounts: AccountRepository,
    @Inject(PLAN_CATALOGUE) private readonly plans: PlanCatalogue,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async open(command: OpenAccountCommand): Promise<OpenedAccount> {
    const plan = command.plan ?? this.plans.defaultPlanId;
    if (!this.plans.find(plan)) throw invalid(`plan must be one of ${this.plans.ids().join(', ')}`);
    const now = this.clock.now();
    const accountId = newObjectId(now);
    const issued = issueApiKey(accountId);
    const { state } = await this.accounts.handle(
      accountId,
      {
        type: 'OpenAccount',
        accountId,
        name: command.name,
        plan,
        isTrial: command.trial,
        virtualBalance: command.balance,
        firstApiKey: { keyId: newObjectId(now), name: 'default', keyHash: issued.keyHash, keyPrefix: issued.keyPrefix },
      },
      now,
    );
    if (state.kind !== 'open') throw new Error('an opened account must be open');
    return { account: toAccountView(state), apiKey: issued.key };
  }
}
