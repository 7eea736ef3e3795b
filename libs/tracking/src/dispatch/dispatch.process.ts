import { createHash } from 'node:crypto';
import type { AccountEvent } from '@rank/accounts/domain/account.events';
import { uuidFromName } from '@rank/domain/deterministic-uuid';
import { parseEvent, StoredEvent } from '@rank/domain/domain-event';
import { streamIdIn } from '@rank/domain/stream-categories';
import { CheckWorkEvent, checkWorkStreamName } from '../domain/check.events';
import { checkIdFor } from '../domain/project-position';
import type { ScheduledCheckRequested } from '../domain/scheduled-checks';
import { CreditRefund, refundOfUnrunCheck } from '../refund/refund.process';

/**
 * The dispatch process: a work order becomes one queued check per keyword, in the order's own work
 * stream (`check-work-<orderId>`), which the scrapers' consumer group shares check by check.
 */

/** A request to check a project's keywords: on demand (charged, in the account stream) or scheduled (a slot, not charged). */
export interface WorkOrder {
  /** Stored as `batchId`. */
  orderId: string;
  projectId: string;
  accountId: string;
  /** The keywords asked for; null means every keyword the project has when the order is dispatched. */
  keywordIds: string[] | null;
  /** Credits each check cost (0 for scheduled checks): what a check that gives no result gives back. */
  creditsPerCheck: number;
  /** The depth an on-demand order was paid for; scheduled checks read the project's depth when they run. */
  serpTop?: 50 | 100;
  requestedAt: Date;
}

type ScrapeRequested = Extract<AccountEvent, { type: 'ScrapeRequested' }>;

/** The work order a stored event places, if it places one. */
export function workOrderOf(stored: StoredEvent): WorkOrder | undefined {
  const onDemand = parseEvent<ScrapeRequested>(stored, ['ScrapeRequested']);
  // The account is the stream's (`account-<accountId>`): the event does not repeat it.
  const accountId = streamIdIn('account', stored.streamName);
  if (onDemand && accountId !== undefined) {
    const d = onDemand.data;
    return {
      orderId: d.batchId,
      projectId: d.projectId,
      accountId,
      keywordIds: d.keywordIds,
      creditsPerCheck: d.creditsPerCheck,
      serpTop: d.serpTop,
      requestedAt: new Date(d.requestedAt),
    };
  }
  const scheduled = parseEvent<ScheduledCheckRequested>(stored, ['ScheduledCheckRequested']);
  if (scheduled) {
    const d = scheduled.data;
    return {
      orderId: d.batchId,
      projectId: d.projectId,
      accountId: d.accountId,
      keywordIds: null,
      creditsPerCheck: 0,
      requestedAt: new Date(d.requestedAt),
    };
  }
  return undefined;
}

/** A queued check with its event id, derived from the check: queuing it again stores nothing new. */
export type CheckToQueue = CheckWorkEvent & { id: string };

/** What dispatching an order comes to: its checks queued, or (the project is gone) the credits of the checks that will not run. */
export type Dispatch = { kind: 'queue'; streamName: string; checks: CheckToQueue[] } | { kind: 'refund'; refunds: CreditRefund[] };

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

/** A keyword of the project as dispatching reads it: its id, and when it was added. */
export interface KeywordToDispatch {
  keywordId: string;
  addedAt: string;
}

/**
 * Dispatches a work order against the project's keywords now (null once the project is deleted). A
 * scheduled order checks the keywords the project had when it was requested: the same order read
 * again later (a dispatcher that lost its checkpoint) queues nothing for keywords added since, which
 * their own slots check. Check ids are derived from the order and the keyword, so dispatching the
 * same order twice (a replay of the log) queues the same checks. `queuedBefore`: the check ids the
 * order's work stream holds already (read again after a crash, an order may have been queued before
 * its project went); those are the scrapers' to settle, so only the others give their credits back.
 */
export function dispatchWorkOrder(
  order: WorkOrder,
  projectKeywords: readonly KeywordToDispatch[] | null,
  queuedBefore: ReadonlySet<string> = new Set(),
): Dispatch {
  const keywordIds =
    order.keywordIds ?? (projectKeywords ?? []).filter((k) => Date.parse(k.addedAt) <= order.requestedAt.getTime()).map((k) => k.keywordId);
  const checks: CheckToQueue[] = keywordIds.map((keywordId) => {
    const checkId = checkIdFor(order.orderId, keywordId, order.requestedAt, sha256);
    return {
      id: uuidFromName(`check-queued:${checkId}`),
      type: 'CheckQueued',
      data: {
        checkId,
        batchId: order.orderId,
        projectId: order.projectId,
        accountId: order.accountId,
        keywordId,
        creditsPerCheck: order.creditsPerCheck,
        ...(order.serpTop === undefined ? {} : { serpTop: order.serpTop }),
        requestedAt: order.requestedAt.toISOString(),
      },
    };
  });
  if (projectKeywords === null) {
    // Deleted before its checks were queued: nothing to check, but on-demand credits go back. Checks
    // queued before (they ran, or are dropped and refunded by the scrapers) are not refunded here: the
    // project's results went with it, and a check that ran must not come back as never run.
    const unqueued = checks.filter((check) => !queuedBefore.has(check.data.checkId));
    return { kind: 'refund', refunds: unqueued.flatMap((check) => refundOfUnrunCheck(check.data) ?? []) };
  }
  return { kind: 'queue', streamName: checkWorkStreamName(order.orderId), checks };
}
