import { deciderSpec } from '@rank/domain/testing/decider-spec';
import { accountDecider, activeApiKeys, MAX_ACTIVE_API_KEYS, OpenAccountState } from './account';
import { AccountEvent } from './account.events';
import { foldEvents } from '@rank/domain/decider';

const now = new Date('2026-01-01T00:00:00.000Z');
const at = now.toISOString();
const spec = deciderSpec(accountDecider, now);

const opened: AccountEvent = {
  type: 'AccountOpened',
  data: { accountId: 'a'.repeat(24), name: 'Agency', plan: 'pro', isTrial: false, virtualBalance: 100, openedAt: at },
};
const keyCreated = (n: number): AccountEvent => ({
  type: 'ApiKeyCreated',
  data: { keyId: String(n).padStart(24, '0'), name: `key ${n}`, keyHash: `hash${n}`, keyPrefix: 'abcd••••', createdAt: at },
});
const createKey = (n: number) => ({
  type: 'CreateApiKey' as const,
  keyId: String(n).padStart(24, '0'),
  name: `key ${n}`,
  keyHash: `hash${n}`,
  keyPrefix: 'abcd••••',
});

describe('Account', () => {
  describe('OpenAccount', () => {
    it('opens a new account with its plan and balance', () => {
      spec
        .given([])
        .when({ type: 'OpenAccount', accountId: 'a'.repeat(24), name: 'Agency', plan: 'pro', isTrial: false, virtualBalance: 100 })
        .then([opened]);
    });
    it('opens an account together with its first API key', () => {
      const firstApiKey = { keyId: String(1).padStart(24, '0'), name: 'key 1', keyHash: 'hash1', keyPrefix: 'abcd••••' };
      spec
        .given([])
        .when({
          type: 'OpenAccount',
          accountId: 'a'.repeat(24),
          name: 'Agency',
          plan: 'pro',
          isTrial: false,
          virtualBalance: 100,
          firstApiKey,
        })
        .then([opened, keyCreated(1)]);
    });
    it('refuses to open the same account twice', () => {
      spec
        .given([opened])
        .when({ type: 'OpenAccount', accountId: 'a'.repeat(24), name: 'x', plan: 'pro', isTrial: false, virtualBalance: 0 })
        .thenThrows('conflict');
    });
  });

  describe('ChangeAccount', () => {
    it('records only what changed', () => {
      spec
        .given([opened])
        .when({ type: 'ChangeAccount', plan: 'pro', status: 'suspended', virtualBalance: 100 })
        .then([{ type: 'AccountStatusChanged', data: { status: 'suspended', changedAt: at } }]);
    });
    it('changes plan, trial flag and balance together', () => {
      spec
        .given([opened])
        .when({ type: 'ChangeAccount', plan: 'free', isTrial: true, virtualBalance: 5 })
        .then([
          { type: 'AccountPlanChanged', data: { plan: 'free', isTrial: true, changedAt: at } },
          { type: 'ScrapeBalanceSet', data: { virtualBalance: 5, setAt: at } },
        ]);
    });
    it('says not found for an account that was never opened', () => {
      spec.given([]).when({ type: 'ChangeAccount', status: 'blocked' }).thenThrows('not-found', 'Account not found');
    });
  });

  describe('CreateApiKey', () => {
    it('creates a key', () => {
      spec
        .given([opened])
        .when(createKey(1))
        .then([keyCreated(1)]);
    });
    it(`refuses a key beyond ${MAX_ACTIVE_API_KEYS} active ones`, () => {
      const five = [1, 2, 3, 4, 5].map(keyCreated);
      spec
        .given([opened, ...five])
        .when(createKey(6))
        .thenThrows('invalid', /at most 5 active API keys/);
    });
    it('counts only active keys against the limit', () => {
      const five = [1, 2, 3, 4, 5].map(keyCreated);
      const revoked: AccountEvent = { type: 'KeyRevoked', data: { keyId: String(3).padStart(24, '0'), revokedAt: at } };
      spec
        .given([opened, ...five, revoked])
        .when(createKey(6))
        .then([keyCreated(6)]);
    });
  });

  describe('RevokeApiKey', () => {
    it('revokes an active key', () => {
      spec
        .given([opened, keyCreated(1)])
        .when({ type: 'RevokeApiKey', keyId: String(1).padStart(24, '0') })
        .then([{ type: 'KeyRevoked', data: { keyId: String(1).padStart(24, '0'), revokedAt: at } }]);
    });
    it('says not found for an unknown key and for a key already revoked', () => {
      spec
        .given([opened])
        .when({ type: 'RevokeApiKey', keyId: 'f'.repeat(24) })
        .thenThrows('not-found', 'API key not found');
      const revoked: AccountEvent = { type: 'KeyRevoked', data: { keyId: String(1).padStart(24, '0'), revokedAt: at } };
      spec
        .given([opened, keyCreated(1), revoked])
        .when({ type: 'RevokeApiKey', keyId: String(1).padStart(24, '0') })
        .thenThrows('not-found');
    });
  });

  it('evolves revocation into the key record and out of the active keys', () => {
    const state = foldEvents(accountDecider, [
      opened,
      keyCreated(1),
      keyCreated(2),
      { type: 'KeyRevoked', data: { keyId: String(1).padStart(24, '0'), revokedAt: at } },
    ]) as OpenAccountState;
    expect(state.apiKeys.map((k) => k.revokedAt)).toEqual([at, null]);
    expect(activeApiKeys(state).map((k) => k.name)).toEqual(['key 2']);
  });
});

describe('Account: scrape credits', () => {
  const funded: AccountEvent = { ...opened, data: { ...(opened.data as object), virtualBalance: 5 } } as AccountEvent;

  it('charges 1 credit per keyword, 2 for a 100-deep project', () => {
    spec
      .given([funded])
      .when({ type: 'RequestScrape', batchId: 'b1', projectId: 'p1', keywordIds: ['k1', 'k2'], serpTop: 100 })
      .then([
        {
          type: 'ScrapeRequested',
          data: { batchId: 'b1', projectId: 'p1', keywordIds: ['k1', 'k2'], serpTop: 100, creditsPerCheck: 2, credits: 4, requestedAt: at },
        },
      ]);
  });

  it("refuses a request that costs more than the balance, with the spec's message", () => {
    const error = spec
      .given([funded])
      .when({ type: 'RequestScrape', batchId: 'b1', projectId: 'p1', keywordIds: ['k1', 'k2', 'k3'], serpTop: 100 })
      .thenThrows('invalid', 'Insufficient balance');
    expect(error.details).toEqual({ required: 6, virtualBalance: 5 });
  });

  it('takes the charge from the balance and gives refunds back', () => {
    const charged: AccountEvent = {
      type: 'ScrapeRequested',
      data: {
        batchId: 'b1',
        projectId: 'p1',
        keywordIds: ['k1', 'k2', 'k3'],
        serpTop: 50,
        creditsPerCheck: 1,
        credits: 3,
        requestedAt: at,
      },
    };
    const refunded: AccountEvent = { type: 'ScrapeCreditRefunded', data: { batchId: 'b1', checkId: 'c1', credits: 1, refundedAt: at } };
    const state = foldEvents(accountDecider, [funded, charged, refunded]) as OpenAccountState;
    expect(state.virtualBalance).toBe(3);
    spec
      .given([funded, charged])
      .when({ type: 'RequestScrape', batchId: 'b2', projectId: 'p1', keywordIds: ['k1', 'k2', 'k3'], serpTop: 50 })
      .thenThrows('invalid', 'Insufficient balance');
  });
});
