import { createHash } from 'node:crypto';
import { uuidFromName } from '@rank/domain/deterministic-uuid';
import { processSpec } from '@rank/domain/testing/process-spec';
import { checkIdFor } from '../domain/project-position';
import { CheckToQueue, dispatchWorkOrder, KeywordToDispatch, WorkOrder, workOrderOf } from './dispatch.process';

const requestedAt = '2026-05-01T00:00:00.000Z';
const checkId = (orderId: string, keywordId: string) =>
  checkIdFor(orderId, keywordId, new Date(requestedAt), (s) => createHash('sha256').update(s).digest('hex'));
const onDemand: WorkOrder = {
  orderId: 'order-1',
  projectId: 'p1',
  accountId: 'acc',
  keywordIds: ['k0', 'k2'],
  creditsPerCheck: 1,
  serpTop: 50,
  requestedAt: new Date(requestedAt),
};
const scheduled: WorkOrder = { ...onDemand, orderId: 'slot-1', keywordIds: null, creditsPerCheck: 0, serpTop: undefined };
const queued = (order: WorkOrder, keywordId: string): CheckToQueue => {
  const id = checkId(order.orderId, keywordId);
  return {
    id: uuidFromName(`check-queued:${id}`),
    type: 'CheckQueued',
    data: {
      checkId: id,
      batchId: order.orderId,
      projectId: 'p1',
      accountId: 'acc',
      keywordId,
      creditsPerCheck: order.creditsPerCheck,
      // The depth an on-demand check was paid for goes with it; a scheduled check has none.
      ...(order.serpTop === undefined ? {} : { serpTop: order.serpTop }),
      requestedAt,
    },
  };
};

describe('dispatch process: work orders', () => {
  const placed = processSpec(workOrderOf);

  it('when an account asks for an on-demand check, then that is a charged work order of the keywords asked for, for that account', () => {
    placed
      .when({
        streamName: 'account-acc',
        type: 'ScrapeRequested',
        data: { batchId: 'order-1', projectId: 'p1', keywordIds: ['k0', 'k2'], serpTop: 50, creditsPerCheck: 1, credits: 2, requestedAt },
      })
      .then(onDemand);
  });

  it('when a slot is requested, then that is a free work order of every keyword', () => {
    placed
      .when({
        streamName: 'schedule-p1',
        type: 'ScheduledCheckRequested',
        data: { projectId: 'p1', accountId: 'acc', slotKey: '2026-05-01', batchId: 'slot-1', dueAt: requestedAt, requestedAt },
      })
      .then(scheduled);
  });

  it('when anything else happens, then there is no work order', () => {
    placed.when({ streamName: 'schedule-p1', type: 'ScheduledCheckSkipped', data: {} }).then(undefined);
    placed.when({ streamName: 'account-acc', type: 'ScrapeCreditRefunded', data: {} }).then(undefined);
  });
});

describe('dispatch process: queued checks', () => {
  const dispatch = processSpec((order: WorkOrder, keywords: KeywordToDispatch[] | null) => dispatchWorkOrder(order, keywords));
  /** Keywords added before the orders were requested. */
  const added = (...keywordIds: string[]) => keywordIds.map((keywordId) => ({ keywordId, addedAt: '2026-04-30T09:00:00.000Z' }));

  it("given the project's keywords, when an on-demand order is dispatched, then one check is queued per keyword asked for, in the order's work stream", () => {
    dispatch
      .given(added('k0', 'k1', 'k2'))
      .when(onDemand)
      .then({ kind: 'queue', streamName: 'check-work-order-1', checks: [queued(onDemand, 'k0'), queued(onDemand, 'k2')] });
  });

  it("given the project's keywords, when a scheduled order is dispatched, then every keyword the project had when it was requested is checked, for nothing", () => {
    dispatch
      .given(added('k0', 'k1'))
      .when(scheduled)
      .then({ kind: 'queue', streamName: 'check-work-slot-1', checks: [queued(scheduled, 'k0'), queued(scheduled, 'k1')] });
  });

  it('given a keyword added after a scheduled order was requested, when the order is dispatched (read again later, say), then that keyword is not checked for it', () => {
    // Its own slots check it: before, a dispatcher that lost its checkpoint queued a check for every
    // keyword added since, for every past slot.
    const later = { keywordId: 'k9', addedAt: '2026-05-01T00:00:00.001Z' };
    dispatch
      .given([...added('k0'), later])
      .when(scheduled)
      .then({ kind: 'queue', streamName: 'check-work-slot-1', checks: [queued(scheduled, 'k0')] });
    // An on-demand order names its keywords: the ones asked for are checked.
    dispatch
      .given([...added('k0'), { ...later, keywordId: 'k2' }])
      .when(onDemand)
      .then({ kind: 'queue', streamName: 'check-work-order-1', checks: [queued(onDemand, 'k0'), queued(onDemand, 'k2')] });
  });

  it('given the same order dispatched twice (a replay of the log), then the same checks with the same ids: stored once', () => {
    expect(dispatch.given(added('k0')).when(scheduled).outcome()).toEqual(dispatch.given(added('k0')).when(scheduled).outcome());
  });

  it("given a deleted project, when an on-demand order is dispatched, then nothing is queued and every check's credits go back", () => {
    dispatch
      .given(null)
      .when(onDemand)
      .then({
        kind: 'refund',
        refunds: ['k0', 'k2'].map((k) => ({ accountId: 'acc', batchId: 'order-1', checkId: checkId('order-1', k), credits: 1 })),
      });
  });

  it('given a deleted project and an order read again after a crash, part of it queued before, then only the checks never queued give their credits back', () => {
    const queuedBefore = new Set([checkId('order-1', 'k0')]);
    expect(dispatchWorkOrder(onDemand, null, queuedBefore)).toEqual({
      kind: 'refund',
      refunds: [{ accountId: 'acc', batchId: 'order-1', checkId: checkId('order-1', 'k2'), credits: 1 }],
    });
  });

  it('given a deleted project, when a scheduled order is dispatched, then nothing is queued and nothing is owed', () => {
    dispatch.given(null).when(scheduled).then({ kind: 'refund', refunds: [] });
  });
});
