import { eventTypes } from '@rank/domain/domain-event';
import { STREAM_CATEGORIES, streamPrefixOf } from '@rank/domain/stream-categories';

/**
 * Results of SERP checks, in one stream per tracked keyword: `checks-<projectId>-<keywordId>`. One
 * check is one keyword's result page fetched once. Per keyword, not per project, because a stream
 * must stay small: a 3,500-keyword project gains 3,500 results a day, and appending idempotently by
 * event id means knowing the stream's ids (the EventStoreDB adapter reads them). Event ids are derived from the check id, so a check delivered twice is stored once.
 */
export interface RankedResult {
  /** 1-based organic rank. */
  position: number;
  url: string;
  title: string;
  /** Normalised host (see normaliseDomain). */
  domain: string;
}

/** The project's own result: position 0 (and empty url/title/domain) when not within the depth. */
export type ProjectPosition = RankedResult;

export type CheckEvent =
  | {
      type: 'CheckCompleted';
      data: {
        checkId: string;
        batchId: string;
        projectId: string;
        keywordId: string;
        /** When the check completed (ISO 8601): the keyword update's `date`. */
        completedAt: string;
        serpTop: 50 | 100;
        position: ProjectPosition;
        /** Organic results in order, up to the depth (`serpTop`). */
        results: RankedResult[];
        /** AI Overview sources in citation order; empty when the page had no AI Overview. */
        aiOverview: RankedResult[];
        /**
         * The source that answered (`browser`, `fetch-api`, `dataforseo`, `serpapi`). Added with the
         * SERP sources: a result stored before has none and was loaded by the browser.
         */
        source?: string;
      };
    }
  | {
      type: 'CheckFailed';
      data: {
        checkId: string;
        batchId: string;
        projectId: string;
        keywordId: string;
        failedAt: string;
        /** Why, in words a person can act on (blocked by Google, timeout after retries, ...). */
        reason: string;
        /** The account charged for the check, and how many credits go back to it (0 for scheduled checks). */
        accountId: string;
        refundCredits: number;
      };
    };

export const CHECK_EVENT_TYPES = eventTypes<CheckEvent>()(['CheckCompleted', 'CheckFailed']);

export const checksStreamName = STREAM_CATEGORIES.checks;
/** The prefix every check-result stream of a project starts with. */
export const projectChecksStreamPrefix = (projectId: string) => `${streamPrefixOf('checks')}${projectId}-`;

/**
 * One check waiting for a scraper, in its work order's stream `check-work-<orderId>` (the order's id
 * is stored as `batchId`). The dispatcher expands each work order (an on-demand one, a scheduled
 * slot's) into these, one per keyword, so that the scrapers' consumer group shares single checks
 * (seconds each) rather than whole work orders (hours).
 */
export type CheckWorkEvent = {
  type: 'CheckQueued';
  data: {
    checkId: string;
    batchId: string;
    projectId: string;
    accountId: string;
    keywordId: string;
    /** Credits the check cost (0 for scheduled checks): what a failure gives back. */
    creditsPerCheck: number;
    /**
     * The depth an on-demand check was paid for, which it reads whatever the project's depth is by
     * the time it runs; absent for scheduled checks (and checks queued before it was recorded), which
     * read the project's depth then.
     */
    serpTop?: 50 | 100;
    requestedAt: string;
    /** Which try of the check this is: 1 (or absent, as before retries) the first, more for a retry later the same day. */
    attempt?: number;
  };
};

export const CHECK_WORK_EVENT_TYPES = eventTypes<CheckWorkEvent>()(['CheckQueued']);

/**
 * A scheduled check that failed for a passing reason (a block, a resting egress, a timeout) is tried
 * again later the same local day: this records the failed try, and when the next may start. The retry
 * itself is a new `CheckQueued` with the next `attempt`, queued when `retryAt` has come. Kept in the
 * work order's stream beside the queued checks; the scrapers' consumer group skips it.
 */
export type CheckRetryEvent = {
  type: 'CheckRetryScheduled';
  data: CheckWorkEvent['data'] & {
    /** The try that failed. */
    attempt: number;
    /** When the next try may start (ISO 8601): when the blocked egress is back, or a little later. */
    retryAt: string;
    /** Why the try failed, as a failed check would say it. */
    reason: string;
  };
};

export const CHECK_RETRY_EVENT_TYPES = eventTypes<CheckRetryEvent>()(['CheckRetryScheduled']);

export const CHECK_WORK_STREAM_PREFIX = streamPrefixOf('check-work');
export const checkWorkStreamName = STREAM_CATEGORIES['check-work'];
