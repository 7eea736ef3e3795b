import type { TrackedKeyword } from '@rank/projects/domain/project-content.events';
import { uuidFromName } from '@rank/domain/deterministic-uuid';
import type { SerpFetchOutcome, SerpRequest } from '@rank/serp/fetcher';
import type { CheckEvent, CheckWorkEvent, RankedResult } from '../domain/check.events';
import { projectPosition } from '../domain/project-position';
import { CreditRefund, refundOfUnrunCheck } from '../refund/refund.process';

/**
 * The check process: one keyword's queued check, taken by a scraper, becomes its result
 * (`CheckCompleted` or `CheckFailed`) from the result page that was loaded, or from why none was.
 */

/** One keyword's check waiting for a scraper (a `CheckQueued`). */
export type QueuedCheck = CheckWorkEvent['data'];

/** What a check needs to know of its project, loaded once when the check starts. */
export interface ProjectToCheck {
  accountId: string;
  /** The project's domain and aliases. */
  ownDomains: string[];
  serpTop: 50 | 100;
  keywords: TrackedKeyword[];
}

/** How a check of a project that is there starts: load the keyword's result page, or record a result at once. */
export type CheckStart = { kind: 'fetch'; request: SerpRequest } | { kind: 'record'; result: CheckEvent };

export function startCheck(check: QueuedCheck, project: ProjectToCheck, now: Date): CheckStart {
  const keyword = project.keywords.find((k) => k.keywordId === check.keywordId);
  if (!keyword) return { kind: 'record', result: checkFailed(check, now, 'The keyword was removed from the project before it was checked') };
  return { kind: 'fetch', request: { keyword: keyword.value, geoCode: keyword.geoCode, langCode: keyword.langCode, depth: project.serpTop } };
}

/** The result of a check from its loaded (and parsed) result page, or from why the page could not be had. */
export function checkResult(check: QueuedCheck, project: ProjectToCheck, outcome: SerpFetchOutcome, now: Date): CheckEvent {
  if (outcome.kind !== 'success') return checkFailed(check, now, outcome.reason);
  const ranked = (r: RankedResult): RankedResult => ({ position: r.position, url: r.url, title: r.title, domain: r.domain });
  const results = outcome.organic.slice(0, project.serpTop).map(ranked);
  const aiOverview = outcome.aiOverview.map(ranked);
  return {
    type: 'CheckCompleted',
    data: { ...baseOf(check), completedAt: now.toISOString(), serpTop: project.serpTop, position: projectPosition(results, project.ownDomains), results, aiOverview },
  };
}

/** A check that kept failing (the store, say) through its attempts: recorded as failed rather than left open. */
export const checkGivenUp = (check: QueuedCheck, now: Date): CheckEvent => checkFailed(check, now, 'The check could not be completed after several attempts');

/**
 * A check whose project is gone (before it started, or while its page loaded) stores no result: the
 * project's streams are erased, and writing one would bring it back. On-demand credits go back.
 */
export const dropCheck = (check: QueuedCheck): { refund: CreditRefund | undefined } => ({ refund: refundOfUnrunCheck(check) });

/** A check's result has one event id whoever runs it: a check delivered twice is stored once. */
export const resultEventId = (check: QueuedCheck) => uuidFromName(`check-result:${check.checkId}`);

function checkFailed(check: QueuedCheck, now: Date, reason: string): CheckEvent {
  return { type: 'CheckFailed', data: { ...baseOf(check), failedAt: now.toISOString(), reason, accountId: check.accountId, refundCredits: check.creditsPerCheck } };
}

function baseOf(check: QueuedCheck) {
  return { checkId: check.checkId, batchId: check.batchId, projectId: check.projectId, keywordId: check.keywordId };
}
