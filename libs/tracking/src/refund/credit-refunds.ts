import { Inject, Injectable } from '@nestjs/common';
import { AccountRepository } from '@rank/accounts/account.repository';
import { CLOCK, Clock } from '@rank/platform/tokens';
import { CreditRefund, refundCommand } from './refund.process';

/** Pays refunds into the accounts: the refund process decides, the account's decider records it once per check. */
@Injectable()
export class CreditRefunds {
  constructor(
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly accounts: AccountRepository,
  ) {}

  async pay(refund: CreditRefund): Promise<void> {
    const { accountId, command, idempotencyKey } = refundCommand(refund);
    await this.accounts.handle(accountId, command, this.clock.now(), { idempotencyKey });
  }
}
