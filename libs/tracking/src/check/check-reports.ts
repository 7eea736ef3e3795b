import type { LoggerService } from '@nestjs/common';
import type { Metrics } from '@rank/platform/metrics/metrics';
import type { SerpFetchObserver } from '@rank/serp/fetcher';
import type { QueuedCheck } from './check.process';
import type { CheckReport, CheckSettlement } from './check-worker';

/** On-demand checks cost credits; scheduled ones are paid from the monthly tokens and cost none. */
const sourceOf = (check: QueuedCheck) => (check.creditsPerCheck > 0 ? 'on-demand' : 'scheduled');

/**
 * What a scraper tells of its checks: `rank_checks_total` by outcome and failure cause, the checks in
 * flight, page load times and block pages by egress, and a warning per failed check with its reason,
 * source and egress (a proxy's host:port or `direct`; never its credentials).
 */
export function checkReports(metrics: Metrics, logger: LoggerService): { checks: CheckReport; pages: SerpFetchObserver } {
  const checks: CheckReport = {
    started: () => metrics.checksInFlight.inc(),
    finished: (check: QueuedCheck, settlement: CheckSettlement | undefined) => {
      metrics.checksInFlight.dec();
      if (!settlement) return;
      metrics.checks.inc({ outcome: settlement.outcome, reason: settlement.outcome === 'failed' ? settlement.cause : '' });
      if (settlement.outcome !== 'failed') return;
      logger.warn({
        message: `check ${check.checkId} failed: ${settlement.reason}`,
        checkId: check.checkId,
        workOrderId: check.batchId,
        projectId: check.projectId,
        keywordId: check.keywordId,
        source: sourceOf(check),
        egress: settlement.egress ?? 'none',
        cause: settlement.cause,
        reason: settlement.reason,
      });
    },
  };
  const pages: SerpFetchObserver = {
    pageLoaded: (_egress, outcome, seconds) => metrics.pageLoad.observe({ outcome }, seconds),
    blocked: (egress) => metrics.blockPages.inc({ egress }),
  };
  return { checks, pages };
}
