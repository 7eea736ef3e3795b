import { processSpec } from '@rank/domain/testing/process-spec';
import type { CheckEvent } from '../domain/check.events';
import { refundCommand, refundOfFailedCheck, refundOfUnrunCheck } from './refund.process';

type CheckFailed = Extract<CheckEvent, { type: 'CheckFailed' }>;

const failed = (refundCredits: number): CheckFailed => ({
  type: 'CheckFailed',
  data: {
    checkId: 'c1',
    batchId: 'order-1',
    projectId: 'p1',
    keywordId: 'k1',
    failedAt: '2026-05-01T00:00:01.000Z',
    reason: 'blocked by Google',
    accountId: 'acc',
    refundCredits,
  },
});
const queued = (creditsPerCheck: number) => ({ checkId: 'c1', batchId: 'order-1', accountId: 'acc', creditsPerCheck });

describe('refund process', () => {
  const onFailure = processSpec(refundOfFailedCheck);
  const onUnrun = processSpec(refundOfUnrunCheck);

  it('when an on-demand check fails, then its credits go back to the account that paid', () => {
    onFailure.when(failed(2)).then({ accountId: 'acc', batchId: 'order-1', checkId: 'c1', credits: 2 });
  });

  it('when a scheduled check fails, then nothing goes back: it cost no credits', () => {
    onFailure.when(failed(0)).then(undefined);
  });

  it('when a paid check never runs (its project was deleted), then its credits go back all the same', () => {
    onUnrun.when(queued(1)).then({ accountId: 'acc', batchId: 'order-1', checkId: 'c1', credits: 1 });
    onUnrun.when(queued(0)).then(undefined);
  });

  it('asks the account for the refund keyed by the check, so that asking twice pays once', () => {
    processSpec(refundCommand)
      .when({ accountId: 'acc', batchId: 'order-1', checkId: 'c1', credits: 2 })
      .then({
        accountId: 'acc',
        command: { type: 'RefundCheck', batchId: 'order-1', checkId: 'c1', credits: 2 },
        idempotencyKey: 'refund:c1',
      });
  });
});
