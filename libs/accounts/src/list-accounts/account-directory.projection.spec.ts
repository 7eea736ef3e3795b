import { EventInStream, projectionSpec } from '@rank/read-store/testing/projection-spec';
import { workspaceStreamName } from '@rank/projects/domain/workspace.events';
import { AccountEvent, accountStreamName } from '../domain/account.events';
import { accountDirectoryProjection } from './account-directory.projection';

const spec = projectionSpec(accountDirectoryProjection);
const accountId = '65f1a2b3c4d5e6f708192a3b';
const at = '2026-03-01T09:30:00.000Z';
const inAccount = (event: AccountEvent, position?: number): EventInStream => ({
  streamName: accountStreamName(accountId),
  ...event,
  position,
});
const fact = (name: string, value: string, version: number) => ({
  kind: 'insert' as const,
  table: 'account_facts',
  row: { account_id: accountId, fact: name, value, version },
});

describe('account directory projection', () => {
  it('writes the facts of an opened account, active, versioned by log position', () => {
    spec
      .given([
        inAccount(
          { type: 'AccountOpened', data: { accountId, name: 'Agency', plan: 'pro', isTrial: true, virtualBalance: 5, openedAt: at } },
          4,
        ),
      ])
      .then([
        fact('name', 'Agency', 4),
        fact('plan', 'pro', 4),
        fact('trial', '1', 4),
        fact('status', 'active', 4),
        fact('opened_at', at, 4),
      ]);
  });

  it('writes only what a change states: the plan and trial flag, or the status', () => {
    spec
      .given([
        inAccount({ type: 'AccountPlanChanged', data: { plan: 'agency', isTrial: false, changedAt: at } }, 9),
        inAccount({ type: 'AccountStatusChanged', data: { status: 'suspended', changedAt: at } }, 12),
      ])
      .then([fact('plan', 'agency', 9), fact('trial', '0', 9), fact('status', 'suspended', 12)]);
  });

  it('writes nothing for balances, keys and scrapes, nor for other streams', () => {
    spec
      .given([
        inAccount({ type: 'ScrapeBalanceSet', data: { virtualBalance: 10, setAt: at } }),
        inAccount({
          type: 'ApiKeyCreated',
          data: { keyId: '65f1a2b3c4d5e6f708192a41', name: 'ci', keyHash: 'h', keyPrefix: 'abcd', createdAt: at },
        }),
        inAccount({ type: 'KeyRevoked', data: { keyId: '65f1a2b3c4d5e6f708192a41', revokedAt: at } }),
        {
          streamName: workspaceStreamName(accountId),
          type: 'FolderCreated',
          data: { folderId: '65f1a2b3c4d5e6f708192a50', name: 'x', position: 0, createdAt: at },
        },
      ])
      .thenNothing();
  });
});
