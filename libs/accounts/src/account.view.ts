import type { OpenAccountState } from './domain/account';

/** The operator's view of an account (clarifications: Accounts, plans and the operator API). */
export interface AccountView {
  _id: string;
  name: string;
  plan: string;
  isTrial: boolean;
  status: string;
  virtualBalance: number;
  createdAt: string;
}

export function toAccountView(account: OpenAccountState): AccountView {
  return {
    _id: account.accountId,
    name: account.name,
    plan: account.plan,
    isTrial: account.isTrial,
    status: account.status,
    virtualBalance: account.virtualBalance,
    createdAt: account.openedAt,
  };
}
