/**
 * Results of SERP checks, in the stream `checks-<projectId>`. One check is one keyword's result page
 * fetched once. Event ids are derived from the check id, so a check delivered twice is stored once.
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

export const checksStreamName = (projectId: string) => `checks-${projectId}`;
