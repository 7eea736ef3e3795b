import { Inject, Injectable } from '@nestjs/common';
import { READ_STORE } from '@rank/platform/tokens';
import type { ReadStore } from '@rank/read-store/read-store.port';

export interface TrafficRow {
  domain: string;
  fetchedAtMs: number;
  months: string[];
  visits: (number | null)[];
  totalVisits: number;
  bounceRate: number | null;
  avgVisitDuration: number | null;
  hasData: boolean;
}

export interface PageSpeedRow {
  domain: string;
  level: 'domain' | 'page';
  url: string;
  source: 'psi' | 'lighthouse';
  measuredAtMs: number;
  performanceScore: number | null;
  accessibilityScore: number | null;
  bestPracticesScore: number | null;
  seoScore: number | null;
  largestContentfulPaint: number | null;
  firstContentfulPaint: number | null;
  totalBlockingTime: number | null;
  cumulativeLayoutShift: number | null;
  hasFieldData: boolean;
  fieldLcpP75: number | null;
  fieldClsP75: number | null;
  fieldInpP75: number | null;
  cruxScore: number | null;
}

export interface CruxRow {
  target: 'origin' | 'url';
  url: string;
  fetchedAtMs: number;
  dates: string[];
  lcp: (number | null)[];
  cls: (number | null)[];
  inp: (number | null)[];
}

type Raw<Row> = { [K in keyof Row]: unknown };

const PAGE_SPEED_COLUMNS = `domain, level, url, source, toUnixTimestamp64Milli(measured_at) AS measuredAtMs,
  performance_score AS performanceScore, accessibility_score AS accessibilityScore, best_practices_score AS bestPracticesScore,
  seo_score AS seoScore, largest_contentful_paint AS largestContentfulPaint, first_contentful_paint AS firstContentfulPaint,
  total_blocking_time AS totalBlockingTime, cumulative_layout_shift AS cumulativeLayoutShift, has_field_data AS hasFieldData,
  field_lcp_p75 AS fieldLcpP75, field_cls_p75 AS fieldClsP75, field_inp_p75 AS fieldInpP75, crux_score AS cruxScore`;

const toPageSpeed = (r: Raw<PageSpeedRow>): PageSpeedRow => ({
  ...(r as PageSpeedRow),
  measuredAtMs: Number(r.measuredAtMs),
  hasFieldData: Number(r.hasFieldData) === 1,
});

/** The cached domain data, as the domain streams' projection left it: each target's latest fetch. */
@Injectable()
export class DomainDataReader {
  constructor(@Inject(READ_STORE) private readonly store: ReadStore) {}

  async traffic(domains: readonly string[]): Promise<TrafficRow[]> {
    if (domains.length === 0) return [];
    const rows = await this.store.query<Raw<TrafficRow>>(
      `SELECT domain, toUnixTimestamp64Milli(fetched_at) AS fetchedAtMs, months, visits, total_visits AS totalVisits,
         bounce_rate AS bounceRate, avg_visit_duration AS avgVisitDuration, has_data AS hasData
       FROM domain_traffic FINAL WHERE domain IN {domains:Array(String)}`,
      { domains },
    );
    return rows.map((r) => ({
      ...(r as TrafficRow),
      fetchedAtMs: Number(r.fetchedAtMs),
      totalVisits: Number(r.totalVisits),
      hasData: Number(r.hasData) === 1,
    }));
  }

  /** Page-speed records of these domains at one level. */
  async pageSpeedOfDomains(domains: readonly string[], level: 'domain' | 'page'): Promise<PageSpeedRow[]> {
    if (domains.length === 0) return [];
    const rows = await this.store.query<Raw<PageSpeedRow>>(
      `SELECT ${PAGE_SPEED_COLUMNS} FROM page_speed FINAL WHERE domain IN {domains:Array(String)} AND level = {level:String}`,
      { domains, level },
    );
    return rows.map(toPageSpeed);
  }

  /** Page-level records of these URLs. */
  async pageSpeedOfUrls(urls: readonly string[]): Promise<PageSpeedRow[]> {
    if (urls.length === 0) return [];
    const rows = await this.store.query<Raw<PageSpeedRow>>(
      `SELECT ${PAGE_SPEED_COLUMNS} FROM page_speed FINAL WHERE url IN {urls:Array(String)} AND level = 'page'`,
      { urls },
    );
    return rows.map(toPageSpeed);
  }

  /**
   * A project's ranking pages: the URLs of its keywords' latest successful checks that ranked
   * (tracking's keyword_updates; a keyword no longer tracked does not count).
   */
  async rankingUrls(projectId: string, keywordIds: readonly string[]): Promise<string[]> {
    if (keywordIds.length === 0) return [];
    const rows = await this.store.query<{ url: string }>(
      `SELECT DISTINCT latest.2 AS url FROM (
         SELECT keyword_id, argMax(tuple(position, url), tuple(checked_at, check_id)) AS latest
         FROM keyword_updates
         WHERE project_id = {projectId:String} AND status = 'success' AND keyword_id IN {keywordIds:Array(String)}
         GROUP BY keyword_id
       ) WHERE latest.1 > 0 AND latest.2 != '' ORDER BY url`,
      { projectId, keywordIds },
    );
    return rows.map((r) => r.url);
  }

  /** The domain's CrUX series: its origin's and its pages'. */
  async cruxHistory(domain: string): Promise<CruxRow[]> {
    const rows = await this.store.query<Raw<CruxRow>>(
      `SELECT target, url, toUnixTimestamp64Milli(fetched_at) AS fetchedAtMs, dates, lcp_p75 AS lcp, cls_p75 AS cls, inp_p75 AS inp
       FROM crux_history FINAL WHERE domain = {domain:String} ORDER BY target, url`,
      { domain },
    );
    return rows.map((r) => ({ ...(r as CruxRow), fetchedAtMs: Number(r.fetchedAtMs) }));
  }
}
