import { ACCOUNT_EVENT_TYPES, AccountEvent } from '../domain/account.events';
import { assertNever } from '@rank/domain/domain-error';
import { parseEvent } from '@rank/domain/domain-event';
import { streamIdIn } from '@rank/domain/stream-categories';
import type { RecordedEvent } from '@rank/event-store/event-store.port';
import type { Projection, ReadModelChange } from '@rank/read-store/projection';

/** The facts of an account that the operator lists and filters by. */
export type AccountFact = 'name' | 'plan' | 'trial' | 'status' | 'opened_at';

function factsOf(e: AccountEvent): Partial<Record<AccountFact, string>> {
  switch (e.type) {
    case 'AccountOpened':
      return { name: e.data.name, plan: e.data.plan, trial: e.data.isTrial ? '1' : '0', status: 'active', opened_at: e.data.openedAt };
    case 'AccountPlanChanged':
      return { plan: e.data.plan, trial: e.data.isTrial ? '1' : '0' };
    case 'AccountStatusChanged':
      return { status: e.data.status };
    case 'ScrapeBalanceSet':
    case 'ApiKeyCreated':
    case 'KeyRevoked':
    case 'ScrapeRequested':
    case 'ScrapeCreditRefunded':
      return {};
    default:
      return assertNever(e);
  }
}

/** One row per fact an account event states, in `account_facts` (migration 009). */
export const accountDirectoryProjection: Projection = {
  name: 'account-directory',
  tables: ['account_facts'],
  eventTypes: ACCOUNT_EVENT_TYPES,
  project(event: RecordedEvent): ReadModelChange[] {
    const accountEvent = parseEvent<AccountEvent>(event, ACCOUNT_EVENT_TYPES);
    const accountId = streamIdIn('account', event.streamName);
    if (!accountEvent || accountId === undefined) return [];
    return Object.entries(factsOf(accountEvent)).map(([fact, value]) => ({
      kind: 'insert' as const,
      table: 'account_facts',
      row: { account_id: accountId, fact, value, version: event.position },
    }));
  },
};
