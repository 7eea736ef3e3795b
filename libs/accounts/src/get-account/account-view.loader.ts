import { Injectable } from '@nestjs/common';
import { invalid, notFound } from '@rank/domain/domain-error';
import { isObjectId } from '@rank/domain/object-id';
import { AccountRepository } from '../account.repository';
import { AccountView, toAccountView } from '../account.view';

/**
 * The operator's view of one account, folded from its own event stream (`account-<id>`): the
 * write side's state, read back at once after a change, not a ClickHouse read model.
 */
@Injectable()
export class AccountViewLoader {
  constructor(private readonly accounts: AccountRepository) {}

  async load(accountId: string): Promise<AccountView> {
    if (!isObjectId(accountId)) throw invalid('id must be a 24-character hex id');
    const state = await this.accounts.load(accountId);
    if (state.kind !== 'open') throw notFound('Account not found');
    return toAccountView(state);
  }
}
