import { Inject, Injectable } from '@nestjs/common';
import type { ReadStore } from '@rank/read-store/read-store.port';
import { READ_STORE } from '@rank/platform/tokens';
import { AccountViewLoader } from '../get-account/account-view.loader';
import type { AccountList, AccountListQuery } from './account-list-query';

/**
 * Pages through the directory of accounts (table `account_facts`), oldest first, filtered by status
 * and plan. The page's accounts are then folded from their own streams, so what it shows of each
 * (balance included) is current even when the directory lags the log by a moment.
 */
@Injectable()
export class AccountListReader {
  constructor(
    @Inject(READ_STORE) private readonly readStore: ReadStore,
    private readonly views: AccountViewLoader,
  ) {}

  async list(query: AccountListQuery): Promise<AccountList> {
    const filter = { status: query.status ?? '', plan: query.plan ?? '' };
    const directory = `
      SELECT account_id,
             argMaxIf(value, version, fact = 'status') AS status,
             argMaxIf(value, version, fact = 'plan') AS plan,
             argMaxIf(value, version, fact = 'opened_at') AS opened_at
      FROM account_facts
      GROUP BY account_id
      HAVING ({status:String} = '' OR status = {status:String}) AND ({plan:String} = '' OR plan = {plan:String})`;
    const [ids, [count]] = await Promise.all([
      this.readStore.query<{ account_id: string }>(
        `SELECT account_id FROM (${directory}) ORDER BY opened_at, account_id LIMIT {limit:UInt32} OFFSET {offset:UInt64}`,
        {
          ...filter,
          limit: query.limit,
          offset: (query.page - 1) * query.limit,
        },
      ),
      this.readStore.query<{ total: string | number }>(`SELECT count() AS total FROM (${directory})`, filter),
    ]);
    const accounts = await Promise.all(ids.map((row) => this.views.load(row.account_id)));
    return { accounts, page: query.page, limit: query.limit, total: Number(count?.total ?? 0) };
  }
}
