import { Inject, Injectable } from '@nestjs/common';
import { NewDomainAllowances } from '@rank/accounts/new-domain-allowances';
import { CLOCK, Clock } from '@rank/platform/tokens';
import { isFresh } from './domain/freshness';
import { engagementOf, lastTwelveMonths, totalVisitsOf } from './domain/traffic-figures';
import { DomainDataFetcher } from './fetch/domain-data-fetcher';
import { DomainDataReader, TrafficRow } from './reads/domain-data.reader';
import { EngagedTrafficView, engagedTrafficView, pageSpeedSummaryView } from './reads/domain-views';
import { homePageOf } from './work/domain-work.process';

const FAILED = Symbol('the provider failed or is not configured');

export interface TrafficCheckAnswer {
  domain: string;
  data: EngagedTrafficView | null;
  pagespeed: ReturnType<typeof pageSpeedSummaryView> | null;
}

/**
 * POST /api/tools/traffic-check: the domain's traffic and home-page speed, from the cache when fresh
 * (30 days), else fetched live and recorded. A domain with no stored traffic counts against the
 * new-domain allowance before anything is fetched. A provider that fails gives null for its part
 * (or the stale record, when there is one), never an error, and nothing is cached for it.
 */
@Injectable()
export class TrafficCheck {
  constructor(
    private readonly reader: DomainDataReader,
    private readonly fetcher: DomainDataFetcher,
    private readonly allowances: NewDomainAllowances,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async check(accountId: string, domain: string): Promise<TrafficCheckAnswer> {
    const now = this.clock.now();
    const [[traffic], [pageSpeed]] = await Promise.all([this.reader.traffic([domain]), this.reader.pageSpeedOfDomains([domain], 'domain')]);
    if (!traffic) await this.allowances.count(accountId, [domain], now);

    // A stale record whose refresh fails is still the best we know: it is answered with its own
    // fetchedAt rather than null, which the spec keeps for "the provider has no information".
    const [data, pagespeed] = await Promise.all([
      traffic && isFresh(traffic.fetchedAtMs, now)
        ? engagedTrafficView(traffic)
        : this.liveTraffic(domain).then((live) => (live === FAILED ? (traffic ? engagedTrafficView(traffic) : null) : live)),
      pageSpeed && isFresh(pageSpeed.measuredAtMs, now)
        ? pageSpeedSummaryView(pageSpeed)
        : this.livePageSpeed(domain).then((live) => live ?? (pageSpeed ? pageSpeedSummaryView(pageSpeed) : null)),
    ]);
    return { domain, data, pagespeed };
  }

  /** The live figures, null when the provider has none for the domain, FAILED when it could not answer. */
  private async liveTraffic(domain: string): Promise<EngagedTrafficView | null | typeof FAILED> {
    const outcome = await this.fetcher.traffic(domain, 'request');
    if (outcome.kind !== 'fetched') return FAILED;
    const months = lastTwelveMonths(outcome.value.months);
    const row: TrafficRow = {
      domain,
      fetchedAtMs: outcome.value.fetchedAt.getTime(),
      months: months.map((m) => m.month),
      visits: months.map((m) => m.visits),
      totalVisits: totalVisitsOf(months),
      bounceRate: engagementOf(months, (m) => m.bounceRate),
      avgVisitDuration: engagementOf(months, (m) => m.avgVisitDuration),
      hasData: months.length > 0,
    };
    return engagedTrafficView(row);
  }

  private async livePageSpeed(domain: string) {
    const outcome = await this.fetcher.pageSpeed(domain, homePageOf(domain), 'domain', 'request');
    if (outcome.kind !== 'fetched') return null;
    const f = outcome.value;
    return {
      domain,
      performanceScore: f.performanceScore,
      cruxScore: f.cruxScore,
      largestContentfulPaint: f.largestContentfulPaint,
      cumulativeLayoutShift: f.cumulativeLayoutShift,
      fetchedAt: f.measuredAt,
    };
  }
}
