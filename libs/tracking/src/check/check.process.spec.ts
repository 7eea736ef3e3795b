import { processSpec } from '@rank/domain/testing/process-spec';
import type { SerpFetchOutcome } from '@rank/serp/fetcher';
import { checkGivenUp, checkResult, dropCheck, ProjectToCheck, QueuedCheck, resultEventId, startCheck } from './check.process';

const now = new Date('2026-05-01T00:00:05.000Z');
const project: ProjectToCheck = {
  accountId: 'acc',
  ownDomains: ['shop.example', 'shop-alias.example'],
  serpTop: 50,
  keywords: [{ keywordId: 'k1', value: 'garden shovels', geoCode: 'US', langCode: 'en' }],
};
const check: QueuedCheck = { checkId: 'c1', batchId: 'order-1', projectId: 'p1', accountId: 'acc', keywordId: 'k1', creditsPerCheck: 1, requestedAt: '2026-05-01T00:00:00.000Z' };
const base = { checkId: 'c1', batchId: 'order-1', projectId: 'p1', keywordId: 'k1' };
const result = (position: number, domain: string) => ({ position, url: `https://${domain}/p${position}`, title: `t${position}`, domain });

describe('check process', () => {
  const start = processSpec((queued: QueuedCheck, known: ProjectToCheck) => startCheck(queued, known, now));
  const finish = processSpec((outcome: SerpFetchOutcome, known: ProjectToCheck) => checkResult(check, known, outcome, now));

  it('given the project, when its keyword\'s check is taken, then the keyword\'s result page is loaded to the project\'s depth', () => {
    start.given(project).when(check).then({ kind: 'fetch', request: { keyword: 'garden shovels', geoCode: 'US', langCode: 'en', depth: 50 } });
  });

  it('given the keyword was removed, when its check is taken, then it fails at once and its credits go back', () => {
    start.given({ ...project, keywords: [] }).when(check).then({
      kind: 'record',
      result: { type: 'CheckFailed', data: { ...base, failedAt: now.toISOString(), reason: 'The keyword was removed from the project before it was checked', accountId: 'acc', refundCredits: 1 } },
    });
  });

  it('given the project, when the page is parsed, then the check completes with the project\'s best result (an alias counts) and the results up to the depth', () => {
    const organic = [result(1, 'other.example'), result(2, 'shop-alias.example'), result(3, 'shop.example'), ...Array.from({ length: 50 }, (_, i) => result(i + 4, 'far.example'))];
    const completed = finish.given(project).when({ kind: 'success', pagesRead: 6, organic: organic.map((r) => ({ ...r, snippet: 's' })), aiOverview: [result(1, 'shop.example')] }).outcome();
    expect(completed).toEqual({
      type: 'CheckCompleted',
      data: { ...base, completedAt: now.toISOString(), serpTop: 50, position: result(2, 'shop-alias.example'), results: organic.slice(0, 50), aiOverview: [result(1, 'shop.example')] },
    });
  });

  it('given the project, when the project is nowhere on the page, then its position is 0', () => {
    const completed = finish.given(project).when({ kind: 'success', pagesRead: 1, organic: [{ ...result(1, 'other.example'), snippet: '' }], aiOverview: [] }).outcome();
    expect(completed).toMatchObject({ type: 'CheckCompleted', data: { position: { position: 0, url: '', title: '', domain: '' } } });
  });

  it('given the project, when the page could not be had, then the check fails with the reason, and says what it cost', () => {
    finish.given(project).when({ kind: 'failed', reason: 'blocked by Google', pagesRead: 1 }).then({
      type: 'CheckFailed', data: { ...base, failedAt: now.toISOString(), reason: 'blocked by Google', accountId: 'acc', refundCredits: 1 },
    });
  });

  it('when a check keeps throwing through its attempts, then it is recorded as failed rather than left open', () => {
    processSpec((queued: QueuedCheck) => checkGivenUp(queued, now)).when(check).then({
      type: 'CheckFailed', data: { ...base, failedAt: now.toISOString(), reason: 'The check could not be completed after several attempts', accountId: 'acc', refundCredits: 1 },
    });
  });

  it('when the project is gone, then nothing is stored and a paid check\'s credits go back', () => {
    processSpec(dropCheck).when(check).then({ refund: { accountId: 'acc', batchId: 'order-1', checkId: 'c1', credits: 1 } });
    processSpec(dropCheck).when({ ...check, creditsPerCheck: 0 }).then({ refund: undefined });
  });

  it('gives a check\'s result one event id whoever runs it', () => {
    expect(resultEventId(check)).toBe(resultEventId({ ...check }));
    expect(resultEventId(check)).not.toBe(resultEventId({ ...check, checkId: 'c2' }));
  });
});
