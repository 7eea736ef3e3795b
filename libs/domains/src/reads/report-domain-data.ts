import { Injectable } from '@nestjs/common';
import type { ReportDomainData, ReportPageSpeed, ReportTraffic } from '@rank/tracking/exports/agent-report';
import { DomainDataReader, PageSpeedRow } from './domain-data.reader';

const iso = (ms: number) => new Date(ms).toISOString();

const reportPageSpeed = (row: PageSpeedRow): ReportPageSpeed => ({
  url: row.url,
  source: row.source,
  performanceScore: row.performanceScore,
  accessibilityScore: row.accessibilityScore,
  bestPracticesScore: row.bestPracticesScore,
  seoScore: row.seoScore,
  largestContentfulPaint: row.largestContentfulPaint,
  firstContentfulPaint: row.firstContentfulPaint,
  totalBlockingTime: row.totalBlockingTime,
  cumulativeLayoutShift: row.cumulativeLayoutShift,
  cruxScore: row.cruxScore,
  cruxFieldData: row.hasFieldData ? { LCP: { p75: row.fieldLcpP75 }, CLS: { p75: row.fieldClsP75 }, INP: { p75: row.fieldInpP75 } } : null,
  measuredAt: iso(row.measuredAtMs),
});

/** What the agent export states of a project's domain data, read from the cached read models (never fetched). */
@Injectable()
export class ReportDomainDataLoader {
  constructor(private readonly reader: DomainDataReader) {}

  /** `keywordIds`: the project's tracked keywords, whose latest ranking pages are reported. */
  async load(projectId: string, domain: string, competitors: readonly string[], keywordIds: readonly string[]): Promise<ReportDomainData> {
    const rankingUrls = await this.reader.rankingUrls(projectId, keywordIds);
    const [trafficRows, [home], pages, crux] = await Promise.all([
      this.reader.traffic([domain, ...competitors]),
      this.reader.pageSpeedOfDomains([domain], 'domain'),
      this.reader.pageSpeedOfUrls(rankingUrls),
      this.reader.cruxHistory(domain),
    ]);
    const traffic = new Map<string, ReportTraffic>(
      trafficRows
        .filter((r) => r.hasData)
        .map((r) => [
          r.domain,
          {
            totalVisits: r.totalVisits,
            months: r.months.map((month, i) => ({ month, visits: r.visits[i] ?? null })),
            bounceRate: r.bounceRate,
            avgVisitDuration: r.avgVisitDuration,
            fetchedAt: iso(r.fetchedAtMs),
          },
        ]),
    );
    const origin = crux.find((r) => r.target === 'origin' && r.dates.length > 0);
    const last = origin ? origin.dates.length - 1 : -1;
    return {
      traffic,
      homePage: home ? reportPageSpeed(home) : null,
      pages: pages.map(reportPageSpeed),
      crux: origin
        ? { date: origin.dates[last]!, lcp: origin.lcp[last] ?? null, cls: origin.cls[last] ?? null, inp: origin.inp[last] ?? null }
        : null,
    };
  }
}
