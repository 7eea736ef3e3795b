import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { invalid, notFound } from '@rank/domain/domain-error';
import { isObjectId } from '@rank/domain/object-id';
import { AccountRepository } from '../account.repository';
import { AccountView, toAccountView } from '../account.view';

export class GetAccountQuery {
  constructor(readonly accountId: string) {
    if (!isObjectId(accountId)) throw invalid('id must be a 24-character hex id');
  }
}

@QueryHandler(GetAccountQuery)
export class GetAccountHandler implements IQueryHandler<GetAccountQuery, AccountView> {
  constructor(private readonly accounts: AccountRepository) {}

  async execute(query: GetAccountQuery): Promise<AccountView> {
    const state = await this.accounts.load(query.accountId);
    if (state.kind !== 'open') throw notFound('Account not found');
    return toAccountView(state);
  }
}
