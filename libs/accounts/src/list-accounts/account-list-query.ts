import { invalid } from '@rank/domain/domain-error';
import type { AccountView } from '../account.view';
import type { AccountStatus } from '../domain/account.events';

export const ACCOUNT_STATUSES: readonly AccountStatus[] = ['active', 'suspended', 'blocked'];
export const MAX_ACCOUNTS_PER_PAGE = 100;

export interface AccountListQuery {
  status?: AccountStatus;
  plan?: string;
  /** From 1. */
  page: number;
  limit: number;
}

export interface AccountList {
  accounts: AccountView[];
  page: number;
  limit: number;
  /** Accounts that match the filter, on every page. */
  total: number;
}

const wholeNumber = (name: string, raw: unknown, fallback: number, min: number, max: number): number => {
  if (raw === undefined || raw === '') return fallback;
  // Decimal digits only: Number() would also read 0x10, 1e1 and +2.
  const value = typeof raw === 'number' ? raw : typeof raw === 'string' && /^\d{1,16}$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isInteger(value) || value < min || value > max) throw invalid(`${name} must be a whole number from ${min} to ${max}`);
  return value;
};

/** The operator's listing request, from query parameters or CLI options; a bad value is a 400 naming it. */
export function parseAccountListQuery(input: { status?: unknown; plan?: unknown; page?: unknown; limit?: unknown }): AccountListQuery {
  const { status, plan } = input;
  if (status !== undefined && status !== '' && !ACCOUNT_STATUSES.includes(status as AccountStatus)) {
    throw invalid(`status must be one of ${ACCOUNT_STATUSES.join(', ')}`);
  }
  if (plan !== undefined && typeof plan !== 'string') throw invalid('plan must be a string');
  return {
    status: status === undefined || status === '' ? undefined : (status as AccountStatus),
    plan: plan === undefined || plan === '' ? undefined : plan,
    page: wholeNumber('page', input.page, 1, 1, 1_000_000),
    limit: wholeNumber('limit', input.limit, 50, 1, MAX_ACCOUNTS_PER_PAGE),
  };
}
