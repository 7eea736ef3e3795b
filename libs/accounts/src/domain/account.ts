import { LIMITS } from '@rank/domain/limits';
import { assertNever, DomainError, invalid, notFound } from '@rank/domain/domain-error';
import { Decider } from '@rank/domain/decider';
import { checkCost } from '@rank/projects/domain/project-settings';
import { ACCOUNT_EVENT_TYPES, AccountEvent, AccountStatus } from './account.events';

export const MAX_ACTIVE_API_KEYS = LIMITS.apiKeysPerAccount;
export const MAX_API_KEY_NAME_LENGTH = 100;

export interface ApiKeyRecord {
  keyId: string;
  name: string;
  keyHash: string;
  keyPrefix: string;
  createdAt: string;
  revokedAt: string | null;
}

export type AccountState =
  | { kind: 'absent' }
  | {
      kind: 'open';
      accountId: string;
      name: string;
      plan: string;
      isTrial: boolean;
      status: AccountStatus;
      virtualBalance: number;
      openedAt: string;
      /** Every key ever created, revoked ones included, in creation order. */
      apiKeys: ApiKeyRecord[];
    };

export type OpenAccountState = Extract<AccountState, { kind: 'open' }>;

export type AccountCommand =
  | {
      type: 'OpenAccount';
      accountId: string;
      name: string;
      plan: string;
      isTrial: boolean;
      virtualBalance: number;
      /** Opened together with the account, so an account never exists without a way in. */
      firstApiKey?: { keyId: string; name: string; keyHash: string; keyPrefix: string };
    }
  | { type: 'ChangeAccount'; plan?: string; isTrial?: boolean; status?: AccountStatus; virtualBalance?: number }
  | { type: 'CreateApiKey'; keyId: string; name: string; keyHash: string; keyPrefix: string }
  | { type: 'RevokeApiKey'; keyId: string }
  | { type: 'RequestScrape'; batchId: string; projectId: string; keywordIds: string[]; serpTop: 50 | 100 }
  | { type: 'RefundCheck'; batchId: string; checkId: string; credits: number };

export const activeApiKeys = (state: OpenAccountState) => state.apiKeys.filter((k) => k.revokedAt === null);

function requireOpen(state: AccountState): OpenAccountState {
  if (state.kind !== 'open') throw notFound('Account not found');
  return state;
}

export function decideAccount(command: AccountCommand, state: AccountState, now: Date): AccountEvent[] {
  const at = now.toISOString();
  switch (command.type) {
    case 'OpenAccount': {
      if (state.kind === 'open') throw new DomainError('conflict', 'Account already exists');
      const { accountId, name, plan, isTrial, virtualBalance, firstApiKey } = command;
      const events: AccountEvent[] = [{ type: 'AccountOpened', data: { accountId, name, plan, isTrial, virtualBalance, openedAt: at } }];
      if (firstApiKey) events.push({ type: 'ApiKeyCreated', data: { ...firstApiKey, createdAt: at } });
      return events;
    }
    case 'ChangeAccount': {
      const account = requireOpen(state);
      const events: AccountEvent[] = [];
      const plan = command.plan ?? account.plan;
      const isTrial = command.isTrial ?? account.isTrial;
      if (plan !== account.plan || isTrial !== account.isTrial) {
        events.push({ type: 'AccountPlanChanged', data: { plan, isTrial, changedAt: at } });
      }
      if (command.status !== undefined && command.status !== account.status) {
        events.push({ type: 'AccountStatusChanged', data: { status: command.status, changedAt: at } });
      }
      if (command.virtualBalance !== undefined && command.virtualBalance !== account.virtualBalance) {
        events.push({ type: 'ScrapeBalanceSet', data: { virtualBalance: command.virtualBalance, setAt: at } });
      }
      return events;
    }
    case 'CreateApiKey': {
      const account = requireOpen(state);
      if (activeApiKeys(account).length >= MAX_ACTIVE_API_KEYS) {
        throw invalid(`An account can have at most ${MAX_ACTIVE_API_KEYS} active API keys; revoke one first`);
      }
      const { keyId, name, keyHash, keyPrefix } = command;
      return [{ type: 'ApiKeyCreated', data: { keyId, name, keyHash, keyPrefix, createdAt: at } }];
    }
    case 'RevokeApiKey': {
      const account = requireOpen(state);
      const key = account.apiKeys.find((k) => k.keyId === command.keyId);
      if (!key || key.revokedAt !== null) throw notFound('API key not found');
      return [{ type: 'KeyRevoked', data: { keyId: key.keyId, revokedAt: at } }];
    }
    case 'RequestScrape': {
      const account = requireOpen(state);
      const creditsPerCheck = checkCost(command.serpTop);
      const credits = command.keywordIds.length * creditsPerCheck;
      if (credits > account.virtualBalance) {
        throw invalid('Insufficient balance', { required: credits, virtualBalance: account.virtualBalance });
      }
      const { batchId, projectId, keywordIds, serpTop } = command;
      return [{ type: 'ScrapeRequested', data: { batchId, projectId, keywordIds, serpTop, creditsPerCheck, credits, requestedAt: at } }];
    }
    case 'RefundCheck': {
      requireOpen(state);
      return [
        {
          type: 'ScrapeCreditRefunded',
          data: { batchId: command.batchId, checkId: command.checkId, credits: command.credits, refundedAt: at },
        },
      ];
    }
    default:
      return assertNever(command);
  }
}

export function evolveAccount(state: AccountState, event: AccountEvent): AccountState {
  if (event.type === 'AccountOpened') {
    const d = event.data;
    return {
      kind: 'open',
      accountId: d.accountId,
      name: d.name,
      plan: d.plan,
      isTrial: d.isTrial,
      status: 'active',
      virtualBalance: d.virtualBalance,
      openedAt: d.openedAt,
      apiKeys: [],
    };
  }
  if (state.kind !== 'open') return state;
  switch (event.type) {
    case 'AccountPlanChanged':
      return { ...state, plan: event.data.plan, isTrial: event.data.isTrial };
    case 'AccountStatusChanged':
      return { ...state, status: event.data.status };
    case 'ScrapeBalanceSet':
      return { ...state, virtualBalance: event.data.virtualBalance };
    case 'ApiKeyCreated':
      return { ...state, apiKeys: [...state.apiKeys, { ...event.data, revokedAt: null }] };
    case 'KeyRevoked':
      return {
        ...state,
        apiKeys: state.apiKeys.map((k) => (k.keyId === event.data.keyId ? { ...k, revokedAt: event.data.revokedAt } : k)),
      };
    case 'ScrapeRequested':
      return { ...state, virtualBalance: state.virtualBalance - event.data.credits };
    case 'ScrapeCreditRefunded':
      return { ...state, virtualBalance: state.virtualBalance + event.data.credits };
    default:
      return assertNever(event);
  }
}

export const accountDecider: Decider<AccountCommand, AccountEvent, AccountState> = {
  decide: decideAccount,
  evolve: evolveAccount,
  initialState: () => ({ kind: 'absent' }),
  eventTypes: ACCOUNT_EVENT_TYPES,
};
