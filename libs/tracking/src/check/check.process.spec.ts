import { processSpec } from '@rank/domain/testing/process-spec';
import type { SerpFetchOutcome } from '@rank/serp/fetcher';
import {
  ATTEMPTS_A_DAY,
  checkGivenUp,
  checkResult,
  dropCheck,
  MIN_RETRY_DELAY_MS,
  ProjectToCheck,
  QueuedCheck,
  resultEventId,
  retryOf,
  RETRY_DELAY_MS,
  startCheck,
} from './check.process';

const now = new Date('2026-05-01T00:00:05.000Z');
const project: ProjectToCheck = {
  accountId: 'acc',
  ownDomains: ['shop.example', 'shop-alias.example'],
  serpTop: 50,
  timeZone: 'UTC',
  keywords: [{ keywordId: 'k1', value: 'garden shovels', geoCode: 'US', langCode: 'en', addedAt: '2026-01-01T00:00:00.000Z' }],
};
const check: QueuedCheck = {
  checkId: 'c1',
  batchId: 'order-1',
  projectId: 'p1',
  accountId: 'acc',
  keywordId: 'k1',
  creditsPerCheck: 1,
  requestedAt: '2026-05-01T00:00:00.000Z',
};
const base = { checkId: 'c1', batchId: 'order-1', projectId: 'p1', keywordId: 'k1' };
const result = (position: number, domain: string) => ({ position, url: `https://${domain}/p${position}`, title: `t${position}`, domain });

describe('check process', () => {
  const start = processSpec((queued: QueuedCheck, known: ProjectToCheck) => startCheck(queued, known, now));
  const finish = processSpec((outcome: SerpFetchOutcome, known: ProjectToCheck) => checkResult(check, known, outcome, now));

  it("given the project, when its keyword's check is taken, then the keyword's result page is loaded to the project's depth", () => {
    start
      .given(project)
      .when(check)
      .then({ kind: 'fetch', request: { keyword: 'garden shovels', geoCode: 'US', langCode: 'en', depth: 50 } });
  });

  it('given a project whose depth changed after an on-demand check was paid, when the check is taken and completes, then it reads the depth it was paid for', () => {
    const paidFor50: QueuedCheck = { ...check, serpTop: 50 };
    const deeper = { ...project, serpTop: 100 as const };
    start
      .given(deeper)
      .when(paidFor50)
      .then({ kind: 'fetch', request: { keyword: 'garden shovels', geoCode: 'US', langCode: 'en', depth: 50 } });
    const organic = Array.from({ length: 100 }, (_, i) => ({ ...result(i + 1, i === 79 ? 'shop.example' : 'far.example'), snippet: '' }));
    const completed = checkResult(paidFor50, deeper, { kind: 'success', pagesRead: 5, organic, aiOverview: [] }, now);
    expect(completed).toMatchObject({ type: 'CheckCompleted', data: { serpTop: 50, position: { position: 0 } } });
    expect(completed.type === 'CheckCompleted' && completed.data.results).toHaveLength(50);
    // A scheduled check (no paid depth) reads the project's depth as it is then
    start
      .given(deeper)
      .when({ ...check, creditsPerCheck: 0 })
      .then({ kind: 'fetch', request: { keyword: 'garden shovels', geoCode: 'US', langCode: 'en', depth: 100 } });
  });

  it('given the keyword was removed, when its check is taken, then it fails at once and its credits go back', () => {
    start
      .given({ ...project, keywords: [] })
      .when(check)
      .then({
        kind: 'record',
        result: {
          type: 'CheckFailed',
          data: {
            ...base,
            failedAt: now.toISOString(),
            reason: 'The keyword was removed from the project before it was checked',
            accountId: 'acc',
            refundCredits: 1,
          },
        },
      });
  });

  it("given the project, when the page is parsed, then the check completes with the project's best result (an alias counts) and the results up to the depth", () => {
    const organic = [
      result(1, 'other.example'),
      result(2, 'shop-alias.example'),
      result(3, 'shop.example'),
      ...Array.from({ length: 50 }, (_, i) => result(i + 4, 'far.example')),
    ];
    const completed = finish
      .given(project)
      .when({
        kind: 'success',
        pagesRead: 6,
        organic: organic.map((r) => ({ ...r, snippet: 's' })),
        aiOverview: [result(1, 'shop.example')],
      })
      .outcome();
    expect(completed).toEqual({
      type: 'CheckCompleted',
      data: {
        ...base,
        completedAt: now.toISOString(),
        serpTop: 50,
        position: result(2, 'shop-alias.example'),
        results: organic.slice(0, 50),
        aiOverview: [result(1, 'shop.example')],
      },
    });
  });

  it('given the project, when the project is nowhere on the page, then its position is 0', () => {
    const completed = finish
      .given(project)
      .when({ kind: 'success', pagesRead: 1, organic: [{ ...result(1, 'other.example'), snippet: '' }], aiOverview: [] })
      .outcome();
    expect(completed).toMatchObject({ type: 'CheckCompleted', data: { position: { position: 0, url: '', title: '', domain: '' } } });
  });

  it('given the project, when the page could not be had, then the check fails with the reason, and says what it cost', () => {
    finish
      .given(project)
      .when({ kind: 'failed', reason: 'blocked by Google', pagesRead: 1 })
      .then({
        type: 'CheckFailed',
        data: { ...base, failedAt: now.toISOString(), reason: 'blocked by Google', accountId: 'acc', refundCredits: 1 },
      });
  });

  it('when a check keeps throwing through its attempts, then it is recorded as failed rather than left open', () => {
    processSpec((queued: QueuedCheck) => checkGivenUp(queued, now))
      .when(check)
      .then({
        type: 'CheckFailed',
        data: {
          ...base,
          failedAt: now.toISOString(),
          reason: 'The check could not be completed after several attempts',
          accountId: 'acc',
          refundCredits: 1,
        },
      });
  });

  it("when the project is gone, then nothing is stored and a paid check's credits go back", () => {
    processSpec(dropCheck)
      .when(check)
      .then({ refund: { accountId: 'acc', batchId: 'order-1', checkId: 'c1', credits: 1 } });
    processSpec(dropCheck)
      .when({ ...check, creditsPerCheck: 0 })
      .then({ refund: undefined });
  });

  it("gives a check's result one event id whoever runs it", () => {
    expect(resultEventId(check)).toBe(resultEventId({ ...check }));
    expect(resultEventId(check)).not.toBe(resultEventId({ ...check, checkId: 'c2' }));
  });

  it('given the project, when a source answered, then the check records which one', () => {
    const completed = finish
      .given(project)
      .when({ kind: 'success', pagesRead: 1, organic: [], aiOverview: [], source: 'fetch-api' })
      .outcome();
    expect(completed).toMatchObject({ type: 'CheckCompleted', data: { source: 'fetch-api' } });
  });
});

describe('check process: retries that keep the day (scheduled checks)', () => {
  // A Berlin project's 09:00 slot on 2026-05-04: 07:00 UTC.
  const berlin: ProjectToCheck = { ...project, timeZone: 'Europe/Berlin' };
  const scheduled: QueuedCheck = { ...check, creditsPerCheck: 0, requestedAt: '2026-05-04T07:00:00.000Z' };
  const at = (iso: string) => new Date(iso);
  const retry = (queued: QueuedCheck, nowIso: string) =>
    processSpec((outcome: SerpFetchOutcome, known: ProjectToCheck) => checkResult(queued, known, outcome, at(nowIso)));
  const blocked = (backAt?: string): SerpFetchOutcome => ({
    kind: 'failed',
    reason: 'page 1 (start=0): blocked by Google (direct connection: captcha page)',
    pagesRead: 0,
    cause: 'blocked',
    egress: 'direct',
    ...(backAt ? { backAt: Date.parse(backAt) } : {}),
  });

  it('given a scheduled check blocked at 09:00, when the egress is back at 09:30, then it is tried again at 09:30, the failed try recorded', () => {
    retry(scheduled, '2026-05-04T07:00:10.000Z')
      .given(berlin)
      .when(blocked('2026-05-04T07:30:10.000Z'))
      .then({
        type: 'CheckRetryScheduled',
        data: {
          ...scheduled,
          attempt: 1,
          retryAt: '2026-05-04T07:30:10.000Z',
          reason: 'page 1 (start=0): blocked by Google (direct connection: captcha page)',
        },
      });
  });

  it('given a timeout that says nothing of when to come back, then the retry waits the retry delay', () => {
    const timedOut: SerpFetchOutcome = { kind: 'failed', reason: 'timed out', pagesRead: 0, cause: 'timeout' };
    const outcome = retry(scheduled, '2026-05-04T07:00:00.000Z').given(berlin).when(timedOut).outcome();
    expect(outcome).toMatchObject({
      type: 'CheckRetryScheduled',
      data: { retryAt: new Date(Date.parse('2026-05-04T07:00:00.000Z') + RETRY_DELAY_MS).toISOString() },
    });
  });

  it('given an egress back in a moment, then the retry still waits the shortest delay', () => {
    const outcome = retry(scheduled, '2026-05-04T07:00:00.000Z').given(berlin).when(blocked('2026-05-04T07:00:01.000Z')).outcome();
    expect(outcome).toMatchObject({
      data: { retryAt: new Date(Date.parse('2026-05-04T07:00:00.000Z') + MIN_RETRY_DELAY_MS).toISOString() },
    });
  });

  it('given a browser that keeps crashing, when its launches rest until 09:10, then the check is tried again at 09:10', () => {
    const resting: SerpFetchOutcome = {
      kind: 'failed',
      reason: 'Chromium went away before loading a page 3 times in a row; the next launch is at 2026-05-04T07:10:00.000Z',
      pagesRead: 0,
      cause: 'browser_resting',
      backAt: Date.parse('2026-05-04T07:10:00.000Z'),
    };
    const outcome = retry(scheduled, '2026-05-04T07:00:00.000Z').given(berlin).when(resting).outcome();
    expect(outcome).toMatchObject({ type: 'CheckRetryScheduled', data: { retryAt: '2026-05-04T07:10:00.000Z', reason: resting.reason } });
  });

  it('given the retry, when its time has come, then the same check is queued as its next try', () => {
    const retried = retryOf({ ...scheduled, attempt: 1, retryAt: '2026-05-04T07:30:10.000Z', reason: 'blocked' });
    expect(retried).toEqual({ type: 'CheckQueued', data: { ...scheduled, attempt: 2 } });
  });

  it('given a retry taken only after its local day ended (the scheduler was down overnight), then the check fails at once instead of recording the next day', () => {
    const second: QueuedCheck = { ...scheduled, requestedAt: '2026-05-04T20:00:00.000Z', attempt: 2 }; // 22:00 in Berlin
    const start = processSpec((nowIso: string, queued: QueuedCheck) => startCheck(queued, berlin, at(nowIso)));
    start
      .given(second)
      .when('2026-05-05T06:00:00.000Z') // 08:00 the next day in Berlin
      .then({
        kind: 'record',
        result: {
          type: 'CheckFailed',
          data: {
            ...base,
            failedAt: '2026-05-05T06:00:00.000Z',
            reason: "The check's day ended before its try 2 could run",
            accountId: 'acc',
            refundCredits: 0,
          },
        },
      });
    // Still its day in Berlin (23:30): it is tried
    start
      .given(second)
      .when('2026-05-04T21:30:00.000Z')
      .then({ kind: 'fetch', request: expect.objectContaining({ keyword: 'garden shovels' }) });
  });

  it('given the last try of the day, when it is blocked again, then the check fails, saying how often it was tried', () => {
    retry({ ...scheduled, attempt: ATTEMPTS_A_DAY }, '2026-05-04T09:00:00.000Z')
      .given(berlin)
      .when(blocked('2026-05-04T09:30:00.000Z'))
      .then({
        type: 'CheckFailed',
        data: {
          ...base,
          failedAt: '2026-05-04T09:00:00.000Z',
          reason: `page 1 (start=0): blocked by Google (direct connection: captcha page) (tried ${ATTEMPTS_A_DAY} times today)`,
          accountId: 'acc',
          refundCredits: 0,
        },
      });
  });

  it('given the egress is back only after local midnight, then the check fails today rather than run tomorrow', () => {
    // 23:50 in Berlin (21:50 UTC); back at 00:20 Berlin time, the next local day.
    const outcome = retry({ ...scheduled, attempt: 2 }, '2026-05-04T21:50:00.000Z')
      .given(berlin)
      .when(blocked('2026-05-04T22:20:00.000Z'))
      .outcome();
    expect(outcome).toMatchObject({ type: 'CheckFailed', data: { reason: expect.stringMatching(/no time is left today/) } });
    // The same instants are still the 4th in New York: the retry goes ahead.
    expect(
      retry({ ...scheduled, attempt: 2 }, '2026-05-04T21:50:00.000Z')
        .given({ ...berlin, timeZone: 'America/New_York' })
        .when(blocked('2026-05-04T22:20:00.000Z'))
        .outcome(),
    ).toMatchObject({ type: 'CheckRetryScheduled' });
  });

  it('given an on-demand check, when it is blocked, then it fails at once and its credits go back', () => {
    retry({ ...scheduled, creditsPerCheck: 2 }, '2026-05-04T07:00:10.000Z')
      .given(berlin)
      .when(blocked('2026-05-04T07:30:10.000Z'))
      .then({
        type: 'CheckFailed',
        data: {
          ...base,
          failedAt: '2026-05-04T07:00:10.000Z',
          reason: 'page 1 (start=0): blocked by Google (direct connection: captcha page)',
          accountId: 'acc',
          refundCredits: 2,
        },
      });
  });

  it('given a failure that would come back the same (a consent page, an unreadable page, no browser), then the scheduled check fails at once', () => {
    for (const cause of ['consent', 'unrecognised_page', 'upstream_refused', 'browser_unavailable'] as const) {
      expect(
        retry(scheduled, '2026-05-04T07:00:10.000Z').given(berlin).when({ kind: 'failed', reason: cause, pagesRead: 0, cause }).outcome(),
      ).toMatchObject({ type: 'CheckFailed' });
    }
  });
});
