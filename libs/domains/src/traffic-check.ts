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
const LATE = Symbol('the provider had not answered in time');

/**
 * How long a traffic check waits for a live part (a Lighthouse run may take 90 s). Under a minute,
 * since the MCP SDK's client (the `trafficCheck` tool) and common reverse proxies give up after 60 s;
 * the fetch goes on and is recorded, so the next check answers from it.
 */
export const TRAFFIC_CHECK_WAIT_MS = 50_000;

export interface TrafficCheckAnswer {
  domain: string;
  data: EngagedTrafficView | null;
  pagespeed: ReturnType<typeof pageSpeedSummaryView> | null;
}

/**
 * POST /api/tools/traffic-check: the domain's traffic and home-page speed, from the cache when fresh
 * (30 days), else fetched live and recorded. A domain with no stored traffic counts against the
 * new-domain allowance before anything is fetched. A provider that fails, or has not answered within
 * TRAFFIC_CHECK_WAIT_MS, gives null for its part (or the stale record, when there is one), never an
 * error; nothing is cached for a failure, and a late answer is recorded when it comes.
 */
@Injectable()
export class TrafficCheck {
  constructor(
    private readonly reader: DomainDataReader,
    private readonly fetcher: DomainDataFetcher,
    private readonly allowances: NewDomainAllowances,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async check(accountId: string, domain: string, waitMs = TRAFFIC_CHECK_WAIT_MS): Promise<TrafficCheckAnswer> {
    const now = this.clock.now();
    const [[traffic], [pageSpeed]] = await Promise.all([this.reader.traffic([domain]), this.reader.pageSpeedOfDomains([domain], 'domain')]);
    if (!traffic) await this.allowances.count(accountId, [domain], now);

    // A stale record whose refresh fails is still the best we know: it is answered with its own
    // fetchedAt rather than null, which the spec keeps for "the provider has no information".
    // A part whose provider has not answered in time is answered as a failure is: the stale record, or null.
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<typeof LATE>((resolve) => (timer = setTimeout(() => resolve(LATE), waitMs)));
    const inTime = <T>(live: Promise<T>) => Promise.race([live, late]);
    try {
      const [data, pagespeed] = await Promise.all([
        traffic && isFresh(traffic.fetchedAtMs, now)
          ? engagedTrafficView(traffic)
          : inTime(this.liveTraffic(domain)).then((live) =>
              live === FAILED || live === LATE ? (traffic ? engagedTrafficView(traffic) : null) : live,
            ),
        pageSpeed && isFresh(pageSpeed.measuredAtMs, now)
          ? pageSpeedSummaryView(pageSpeed)
          : inTime(this.livePageSpeed(domain)).then((live) =>
              live === null || live === LATE ? (pageSpeed ? pageSpeedSummaryView(pageSpeed) : null) : live,
            ),
      ]);
      return { domain, data, pagespeed };
    } finally {
      clearTimeout(timer);
    }
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
