import type { AccountEvent } from '@rank/accounts/domain/account.events';
import type { CheckEvent } from '../domain/check.events';
import type { ScheduledCheckRequested } from '../domain/scheduled-checks';
import type { RecordedEvent } from '@rank/event-store/event-store.port';

/** A batch of checks to run: from an on-demand scrape (charged) or a scheduled slot (not charged). */
export interface CheckBatch {
  batchId: string;
  projectId: string;
  accountId: string;
  /** The keywords asked for; null means every keyword the project has when the dispatcher queues the batch. */
  keywordIds: string[] | null;
  /** Credits each check cost (0 for scheduled checks): what a failed check gives back. */
  creditsPerCheck: number;
  requestedAt: Date;
}

export interface CreditRefund {
  accountId: string;
  batchId: string;
  checkId: string;
  credits: number;
}

/** What an event in the log asks of the scraper, if anything. */
export type CheckWork = { kind: 'batch'; batch: CheckBatch } | { kind: 'refund'; refund: CreditRefund } | { kind: 'none' };

export function checkWorkOf(event: RecordedEvent): CheckWork {
  const accountOf = (stream: string) => stream.slice(stream.indexOf('-') + 1);
  if (event.streamName.startsWith('account-') && event.type === 'ScrapeRequested') {
    const d = (event as unknown as Extract<AccountEvent, { type: 'ScrapeRequested' }>).data;
    return {
      kind: 'batch',
      batch: { batchId: d.batchId, projectId: d.projectId, accountId: accountOf(event.streamName), keywordIds: d.keywordIds, creditsPerCheck: d.creditsPerCheck, requestedAt: new Date(d.requestedAt) },
    };
  }
  if (event.streamName.startsWith('schedule-') && event.type === 'ScheduledCheckRequested') {
    const d = (event as unknown as ScheduledCheckRequested).data;
    return {
      kind: 'batch',
      batch: { batchId: d.batchId, projectId: d.projectId, accountId: d.accountId, keywordIds: null, creditsPerCheck: 0, requestedAt: new Date(d.requestedAt) },
    };
  }
  if (event.streamName.startsWith('checks-') && event.type === 'CheckFailed') {
    const d = (event as unknown as Extract<CheckEvent, { type: 'CheckFailed' }>).data;
    if (d.refundCredits > 0) return { kind: 'refund', refund: { accountId: d.accountId, batchId: d.batchId, checkId: d.checkId, credits: d.refundCredits } };
  }
  return { kind: 'none' };
}
