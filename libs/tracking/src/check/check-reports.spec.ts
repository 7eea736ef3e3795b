import type { LoggerService } from '@nestjs/common';
import { Metrics } from '@rank/platform/metrics/metrics';
import { checkReports } from './check-reports';
import type { QueuedCheck } from './check.process';

const check: QueuedCheck = {
  checkId: 'c1',
  batchId: 'order-1',
  projectId: 'p1',
  accountId: 'acc',
  keywordId: 'k1',
  creditsPerCheck: 0,
  requestedAt: '2026-05-04T07:00:00.000Z',
};

function reportsWithLog() {
  const warnings: Record<string, unknown>[] = [];
  const logger: LoggerService = {
    log: () => undefined,
    error: () => undefined,
    warn: (message: Record<string, unknown>) => warnings.push(message),
  };
  const metrics = new Metrics();
  return { warnings, metrics, ...checkReports(metrics, logger) };
}

describe('what the scraper tells of its checks', () => {
  it('warns of a failed try with its keyword, SERP source, egress and reason, and of the retry to come', async () => {
    const { warnings, metrics, checks } = reportsWithLog();
    checks.started(check);
    checks.finished(check, {
      outcome: 'retrying',
      cause: 'blocked',
      reason: 'page 1 (start=0): blocked by Google (proxy 10.0.0.1:3128: captcha page)',
      egress: '10.0.0.1:3128',
      keyword: 'garden shovels',
      source: 'browser',
      attempt: 1,
      retryAt: '2026-05-04T07:30:00.000Z',
    });
    expect(warnings).toEqual([
      expect.objectContaining({
        message:
          'check c1 "garden shovels" failed (try 1), trying again at 2026-05-04T07:30:00.000Z: page 1 (start=0): blocked by Google (proxy 10.0.0.1:3128: captcha page)',
        keyword: 'garden shovels',
        kind: 'scheduled',
        source: 'browser',
        egress: '10.0.0.1:3128',
        cause: 'blocked',
        attempt: 1,
      }),
    ]);
    expect(await metrics.registry.getSingleMetricAsString('rank_checks_total')).toContain(
      'rank_checks_total{outcome="retrying",reason="blocked"} 1',
    );
  });

  it('warns once when a block starts, saying when the egress is asked again; pages that meet the resting egress add nothing', () => {
    const { warnings, pages } = reportsWithLog();
    pages.resting!('direct', Date.parse('2026-05-04T07:30:00.000Z'), 'captcha page');
    pages.blocked('direct');
    expect(warnings).toEqual([
      {
        message: 'Google blocked direct (captcha page); it rests until 2026-05-04T07:30:00.000Z, when it is asked again',
        egress: 'direct',
        restingUntil: '2026-05-04T07:30:00.000Z',
        reason: 'captcha page',
      },
    ]);
  });

  it('says nothing at warn of a completed check', () => {
    const { warnings, checks } = reportsWithLog();
    checks.started(check);
    checks.finished(check, { outcome: 'completed', keyword: 'garden shovels', source: 'dataforseo' });
    expect(warnings).toEqual([]);
  });
});
