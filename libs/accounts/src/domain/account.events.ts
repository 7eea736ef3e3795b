import { eventTypes } from '@rank/domain/domain-event';
import { STREAM_CATEGORIES } from '@rank/domain/stream-categories';

/** Everything that can happen to an account, as stored in its stream `account-<id>`. */
export type AccountStatus = 'active' | 'suspended' | 'blocked';

export type AccountEvent =
  | {
      type: 'AccountOpened';
      data: { accountId: string; name: string; plan: string; isTrial: boolean; virtualBalance: number; openedAt: string };
    }
  | { type: 'AccountPlanChanged'; data: { plan: string; isTrial: boolean; changedAt: string } }
  | { type: 'AccountStatusChanged'; data: { status: AccountStatus; changedAt: string } }
  | { type: 'ScrapeBalanceSet'; data: { virtualBalance: number; setAt: string } }
  | { type: 'ApiKeyCreated'; data: { keyId: string; name: string; keyHash: string; keyPrefix: string; createdAt: string } }
  | { type: 'KeyRevoked'; data: { keyId: string; revokedAt: string } }
  /** An on-demand check of some of a project's keywords, charged at request time: the scraper's work order. */
  | {
      type: 'ScrapeRequested';
      data: {
        batchId: string;
        projectId: string;
        keywordIds: string[];
        serpTop: 50 | 100;
        creditsPerCheck: number;
        credits: number;
        requestedAt: string;
      };
    }
  /** A check of an on-demand batch failed: its credits go back. */
  | { type: 'ScrapeCreditRefunded'; data: { batchId: string; checkId: string; credits: number; refundedAt: string } };

export type AccountEventType = AccountEvent['type'];

export const ACCOUNT_EVENT_TYPES = eventTypes<AccountEvent>()([
  'AccountOpened',
  'AccountPlanChanged',
  'AccountStatusChanged',
  'ScrapeBalanceSet',
  'ApiKeyCreated',
  'KeyRevoked',
  'ScrapeRequested',
  'ScrapeCreditRefunded',
]);

export const accountStreamName = STREAM_CATEGORIES.account;
