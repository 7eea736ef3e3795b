/** Everything that can happen to an account, as stored in its stream `account-<id>`. */
export type AccountStatus = 'active' | 'suspended' | 'blocked';

export type AccountEvent =
  | { type: 'AccountOpened'; data: { accountId: string; name: string; plan: string; isTrial: boolean; virtualBalance: number; openedAt: string } }
  | { type: 'AccountPlanChanged'; data: { plan: string; isTrial: boolean; changedAt: string } }
  | { type: 'AccountStatusChanged'; data: { status: AccountStatus; changedAt: string } }
  | { type: 'ScrapeBalanceSet'; data: { virtualBalance: number; setAt: string } }
  | { type: 'ApiKeyCreated'; data: { keyId: string; name: string; keyHash: string; keyPrefix: string; createdAt: string } }
  | { type: 'KeyRevoked'; data: { keyId: string; revokedAt: string } };

export type AccountEventType = AccountEvent['type'];

export const accountStreamName = (accountId: string) => `account-${accountId}`;
