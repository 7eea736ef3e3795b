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
    requestedAt: string;
  };
};

export const CHECK_WORK_EVENT_TYPES = eventTypes<CheckWorkEvent>()(['CheckQueued']);

export const CHECK_WORK_STREAM_PREFIX = streamPrefixOf('check-work');
export const checkWorkStreamName = STREAM_CATEGORIES['check-work'];
