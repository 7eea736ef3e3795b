import type { AccountCommand } from '@rank/accounts/domain/account';
import type { CheckEvent, CheckWorkEvent } from '../domain/check.events';

/**
 * The refund process: a check that was paid for (an on-demand work order charges every check up
 * front) and gave no result gives its credits back to the account, once. Scheduled checks drew
 * monthly tokens, not credits: they cost nothing to give back.
 */

/** Credits going back to an account for one check. */
export interface CreditRefund {
  accountId: string;
  /** The work order's id (stored as `batchId`). */
  batchId: string;
  checkId: string;
  credits: number;
}

type CheckFailed = Extract<CheckEvent, { type: 'CheckFailed' }>;
type QueuedCheck = CheckWorkEvent['data'];

/** A stored failure gives back what the check cost (`refundCredits`, 0 for a scheduled check). */
export function refundOfFailedCheck(failed: CheckFailed): CreditRefund | undefined {
  const { accountId, batchId, checkId, refundCredits } = failed.data;
  return refundCredits > 0 ? { accountId, batchId, checkId, credits: refundCredits } : undefined;
}

/** A check that never ran (its project was deleted first) stores no failure, but its credits go back all the same. */
export function refundOfUnrunCheck(
  check: Pick<QueuedCheck, 'accountId' | 'batchId' | 'checkId' | 'creditsPerCheck'>,
): CreditRefund | undefined {
  const { accountId, batchId, checkId, creditsPerCheck } = check;
  return creditsPerCheck > 0 ? { accountId, batchId, checkId, credits: creditsPerCheck } : undefined;
}

/** What the account is asked, keyed by check id: the account pays a refund asked twice once. */
export function refundCommand(refund: CreditRefund): {
  accountId: string;
  command: Extract<AccountCommand, { type: 'RefundCheck' }>;
  idempotencyKey: string;
} {
  const { accountId, batchId, checkId, credits } = refund;
  return { accountId, command: { type: 'RefundCheck', batchId, checkId, credits }, idempotencyKey: `refund:${checkId}` };
}
