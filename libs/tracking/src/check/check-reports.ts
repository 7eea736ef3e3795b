import type { LoggerService } from '@nestjs/common';
import type { Metrics } from '@rank/platform/metrics/metrics';
import type { SerpFetchObserver } from '@rank/serp/fetcher';
import type { QueuedCheck } from './check.process';
import type { CheckReport, CheckSettlement } from './check-worker';

/** On-demand checks cost credits; scheduled ones are paid from the monthly tokens and cost none. */
const kindOf = (check: QueuedCheck) => (check.creditsPerCheck > 0 ? 'on-demand' : 'scheduled');

/**
 * What a scraper tells of its checks: `rank_checks_total` by outcome and failure cause, the checks in
 * flight, page load times and block pages by egress, a warning per failed try of a check with its
 * keyword, reason, SERP source and egress (a proxy's host:port or `direct`; never its credentials),
 * and one warning per block saying when the egress is asked again.
 */
export function checkReports(metrics: Metrics, logger: LoggerService): { checks: CheckReport; pages: SerpFetchObserver } {
  const checks: CheckReport = {
    started: () => metrics.checksInFlight.inc(),
    finished: (check: QueuedCheck, settlement: CheckSettlement | undefined) => {
      metrics.checksInFlight.dec();
      if (!settlement) return;
      metrics.checks.inc({
        outcome: settlement.outcome,
        reason: settlement.outcome === 'failed' || settlement.outcome === 'retrying' ? settlement.cause : '',
      });
      if (settlement.outcome !== 'failed' && settlement.outcome !== 'retrying') return;
      const keyword = settlement.keyword === undefined ? '' : ` "${settlement.keyword}"`;
      const message =
        settlement.outcome === 'retrying'
          ? `check ${check.checkId}${keyword} failed (try ${settlement.attempt}), trying again at ${settlement.retryAt}: ${settlement.reason}`
          : `check ${check.checkId}${keyword} failed: ${settlement.reason}`;
      logger.warn({
        message,
        checkId: check.checkId,
        workOrderId: check.batchId,
        projectId: check.projectId,
        keywordId: check.keywordId,
        keyword: settlement.keyword ?? '',
        kind: kindOf(check),
        source: settlement.source ?? 'none',
        egress: settlement.egress ?? 'none',
        cause: settlement.cause,
        reason: settlement.reason,
        ...(settlement.outcome === 'retrying' ? { attempt: settlement.attempt, retryAt: settlement.retryAt } : {}),
      });
    },
  };
  const pages: SerpFetchObserver = {
    pageLoaded: (_egress, outcome, seconds) => metrics.pageLoad.observe({ outcome }, seconds),
    blocked: (egress) => metrics.blockPages.inc({ egress }),
    // Once per block, not per check that meets the resting egress afterwards: those say so in their own warning.
    resting: (egress, until, why) =>
      logger.warn({
        message: `Google blocked ${egress} (${why}); it rests until ${new Date(until).toISOString()}, when it is asked again`,
        egress,
        restingUntil: new Date(until).toISOString(),
        reason: why,
      }),
  };
  return { checks, pages };
}
