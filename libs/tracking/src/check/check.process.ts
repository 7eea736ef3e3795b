import type { ProjectKeyword } from '@rank/projects/domain/project-content';
import { uuidFromName } from '@rank/domain/deterministic-uuid';
import type { SerpFailureCause, SerpFetchOutcome, SerpRequest } from '@rank/serp/fetcher';
import type { CheckEvent, CheckRetryEvent, CheckWorkEvent, RankedResult } from '../domain/check.events';
import { projectPosition } from '../domain/project-position';
import { dayNumber } from '../domain/schedule/local-day';
import { localDateTime } from '../domain/schedule/zoned-time';
import { CreditRefund, refundOfUnrunCheck } from '../refund/refund.process';

/**
 * The check process: one keyword's queued check, taken by a scraper, becomes its result
 * (`CheckCompleted` or `CheckFailed`) from the result page that was loaded, or from why none was; a
 * scheduled check that failed for a passing reason is tried again later the same day instead.
 */

/** One keyword's check waiting for a scraper (a `CheckQueued`). */
export type QueuedCheck = CheckWorkEvent['data'];

/** What a check needs to know of its project, loaded once when the check starts. */
export interface ProjectToCheck {
  accountId: string;
  /** The project's domain and aliases. */
  ownDomains: string[];
  serpTop: 50 | 100;
  keywords: ProjectKeyword[];
  /** The project's time zone (IANA), whose calendar day a scheduled check's retries stay within. */
  timeZone: string;
}

/** How a check of a project that is there starts: load the keyword's result page, or record a result at once. */
export type CheckStart = { kind: 'fetch'; request: SerpRequest } | { kind: 'record'; result: CheckEvent };

/** Tries of a scheduled check in its day, the first included. */
export const ATTEMPTS_A_DAY = 4;
/** Wait before a retry when the failure does not say when the egress is back (a timeout, say). */
export const RETRY_DELAY_MS = 15 * 60_000;
/** Never retry sooner than this: a rest that is just over would otherwise be met at once by every check. */
export const MIN_RETRY_DELAY_MS = 60_000;
/**
 * Failures that pass: Google's block, an egress resting after one, the network's and servers'
 * hiccups, or a browser that keeps crashing, whose launches rest for a while.
 */
const PASSING_CAUSES: ReadonlySet<SerpFailureCause> = new Set([
  'blocked',
  'egress_resting',
  'timeout',
  'load_error',
  'http_error',
  'browser_resting',
]);

/** How deep a check reads: the depth it was paid for (on demand), else the project's when it runs. */
export const depthOf = (check: QueuedCheck, project: ProjectToCheck): 50 | 100 => check.serpTop ?? project.serpTop;

export function startCheck(check: QueuedCheck, project: ProjectToCheck, now: Date): CheckStart {
  const keyword = project.keywords.find((k) => k.keywordId === check.keywordId);
  if (!keyword)
    return { kind: 'record', result: checkFailed(check, now, 'The keyword was removed from the project before it was checked') };
  // A retry taken after its local day ended (the scheduler or the scrapers were down) fails rather
  // than record today's page as that day's: today has a slot of its own.
  const attempt = check.attempt ?? 1;
  if (attempt > 1 && localDay(now, project.timeZone) !== localDay(new Date(check.requestedAt), project.timeZone)) {
    return { kind: 'record', result: checkFailed(check, now, `The check's day ended before its try ${attempt} could run`) };
  }
  return {
    kind: 'fetch',
    request: { keyword: keyword.value, geoCode: keyword.geoCode, langCode: keyword.langCode, depth: depthOf(check, project) },
  };
}

/**
 * The result of a check from its loaded (and parsed) result page, or from why the page could not be
 * had. A scheduled check whose failure passes (a block, a resting egress, a timeout) is tried again
 * once the egress is back, as long as that is still its local day and it has tries left; only then
 * does it fail. An on-demand check fails at once: its credits go back and the user may ask again.
 */
export function checkResult(
  check: QueuedCheck,
  project: ProjectToCheck,
  outcome: SerpFetchOutcome,
  now: Date,
): CheckEvent | CheckRetryEvent {
  if (outcome.kind !== 'success') return failedOrRetried(check, project, outcome, now);
  const ranked = (r: RankedResult): RankedResult => ({ position: r.position, url: r.url, title: r.title, domain: r.domain });
  const serpTop = depthOf(check, project);
  const results = outcome.organic.slice(0, serpTop).map(ranked);
  const aiOverview = outcome.aiOverview.map(ranked);
  return {
    type: 'CheckCompleted',
    data: {
      ...baseOf(check),
      completedAt: now.toISOString(),
      serpTop,
      position: projectPosition(results, project.ownDomains),
      results,
      aiOverview,
      ...(outcome.source ? { source: outcome.source } : {}),
    },
  };
}

function failedOrRetried(
  check: QueuedCheck,
  project: ProjectToCheck,
  outcome: Extract<SerpFetchOutcome, { kind: 'failed' }>,
  now: Date,
): CheckEvent | CheckRetryEvent {
  const attempt = check.attempt ?? 1;
  const scheduled = check.creditsPerCheck === 0;
  if (!scheduled || outcome.cause === undefined || !PASSING_CAUSES.has(outcome.cause)) return checkFailed(check, now, outcome.reason);
  if (attempt >= ATTEMPTS_A_DAY) return checkFailed(check, now, `${outcome.reason} (tried ${attempt} times today)`);
  const retryAt = new Date(Math.max(outcome.backAt ?? now.getTime() + RETRY_DELAY_MS, now.getTime() + MIN_RETRY_DELAY_MS));
  if (localDay(retryAt, project.timeZone) !== localDay(new Date(check.requestedAt), project.timeZone)) {
    return checkFailed(check, now, `${outcome.reason} (no time is left today for another try)`);
  }
  return { type: 'CheckRetryScheduled', data: { ...check, attempt, retryAt: retryAt.toISOString(), reason: outcome.reason } };
}

const localDay = (instant: Date, timeZone: string) => dayNumber(localDateTime(instant, timeZone));

/** The retry a `CheckRetryScheduled` asks for, once its time has come: the same check, its next try. */
export function retryOf(retry: CheckRetryEvent['data']): CheckWorkEvent {
  const { attempt, retryAt: _retryAt, reason: _reason, ...check } = retry;
  return { type: 'CheckQueued', data: { ...check, attempt: attempt + 1 } };
}

/** One event id per try: a retry requeued by two replicas, or a failed try recorded twice, is stored once. */
export const retryEventId = (check: QueuedCheck, attempt: number) => uuidFromName(`check-retry:${check.checkId}:${attempt}`);
export const requeueEventId = (check: QueuedCheck, attempt: number) => uuidFromName(`check-requeue:${check.checkId}:${attempt}`);

/** A check that kept failing (the store, say) through its attempts: recorded as failed rather than left open. */
export const checkGivenUp = (check: QueuedCheck, now: Date): CheckEvent =>
  checkFailed(check, now, 'The check could not be completed after several attempts');

/**
 * A check whose project is gone (before it started, or while its page loaded) stores no result: the
 * project's streams are erased, and writing one would bring it back. On-demand credits go back.
 */
export const dropCheck = (check: QueuedCheck): { refund: CreditRefund | undefined } => ({ refund: refundOfUnrunCheck(check) });

/** A check's result has one event id whoever runs it: a check delivered twice is stored once. */
export const resultEventId = (check: QueuedCheck) => uuidFromName(`check-result:${check.checkId}`);

function checkFailed(check: QueuedCheck, now: Date, reason: string): CheckEvent {
  return {
    type: 'CheckFailed',
    data: { ...baseOf(check), failedAt: now.toISOString(), reason, accountId: check.accountId, refundCredits: check.creditsPerCheck },
  };
}

function baseOf(check: QueuedCheck) {
  return { checkId: check.checkId, batchId: check.batchId, projectId: check.projectId, keywordId: check.keywordId };
}
