import { Inject, Injectable } from '@nestjs/common';
import { NewDomainAllowances } from '@rank/accounts/new-domain-allowances';
import { CLOCK, Clock } from '@rank/platform/tokens';
import { filterCompetitors } from '../domain/competitor-filter';
import { homePageOf } from '../work/domain-work.process';
import { DomainDataReader } from './domain-data.reader';
import { CompetitorTrafficView, cruxHistoryView, pagePageSpeedView, pageSpeedView, trafficView } from './domain-views';

/**
 * The reads of cached domain data (webtraffic, pagespeed, crux-history, competitors-filtered,
 * pages-pagespeed): never a fetch. A domain looked up with no stored record of the endpoint's kind
 * counts against the account's new-domain allowance first (the 401st is refused with 429).
 */
@Injectable()
export class DomainReads {
  constructor(
    private readonly reader: DomainDataReader,
    private readonly allowances: NewDomainAllowances,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async webTraffic(accountId: string, domain: string) {
    const [row] = await this.reader.traffic([domain]);
    if (!row) {
      await this.allowances.count(accountId, [domain], this.clock.now());
      return { exists: false, data: null };
    }
    return { exists: true, data: trafficView(row) };
  }

  async pageSpeed(accountId: string, domain: string) {
    const [row] = await this.reader.pageSpeedOfDomains([domain], 'domain');
    if (!row) await this.allowances.count(accountId, [domain], this.clock.now());
    return { data: row ? pageSpeedView(row) : null };
  }

  async cruxHistory(accountId: string, domain: string) {
    const rows = await this.reader.cruxHistory(domain);
    if (!rows.some((r) => r.target === 'origin')) await this.allowances.count(accountId, [domain], this.clock.now());
    return cruxHistoryView(domain, rows);
  }

  /** `competitors` normalised; the main domain among them is left out of them. */
  async competitorsFiltered(accountId: string, domain: string, competitors: readonly string[]) {
    const asked = [...new Set(competitors)].filter((c) => c !== domain);
    const rows = await this.reader.traffic([domain, ...asked]);
    const stored = new Set(rows.map((r) => r.domain));
    await this.allowances.count(
      accountId,
      [domain, ...asked].filter((d) => !stored.has(d)),
      this.clock.now(),
    );

    const withData = new Map(rows.filter((r) => r.hasData).map((r) => [r.domain, r]));
    const main = withData.get(domain);
    const mainDomainVisits = main ? main.totalVisits : null;
    const candidates = asked.filter((c) => withData.has(c)).map((c) => ({ domain: c, totalVisits: withData.get(c)!.totalVisits }));
    const kept = filterCompetitors(candidates, mainDomainVisits).map((c) => c.domain);
    const speeds = new Map((await this.reader.pageSpeedOfDomains(kept, 'domain')).map((r) => [r.domain, r]));

    const data: Record<string, CompetitorTrafficView> = {};
    for (const competitor of kept) {
      const row = withData.get(competitor)!;
      data[competitor] = {
        stats: { domain: competitor, totalVisits: row.totalVisits, fetchedAt: new Date(row.fetchedAtMs).toISOString() },
        monthlyVisits: row.months.map((month, i) => ({ month, visits: row.visits[i] ?? null })),
        pageSpeed: { cruxScore: speeds.get(competitor)?.cruxScore ?? null },
      };
    }
    return { data, filtered: kept, mainDomainVisits, totalCompetitors: competitors.length };
  }

  /**
   * A project's ranking pages (its keywords' latest ranking URLs) with their page-speed records,
   * keyed by URL; `baseline` is the home page's record, else the domain's snapshot (`source:
   * domain`), else null.
   */
  async pagesPageSpeed(domain: string, rankingUrls: readonly string[]) {
    const home = homePageOf(domain);
    const pageRows = await this.reader.pageSpeedOfUrls([...new Set([...rankingUrls, home, `https://www.${domain}/`])]);
    const pages: Record<string, ReturnType<typeof pagePageSpeedView>> = {};
    for (const row of pageRows) if (rankingUrls.includes(row.url)) pages[row.url] = pagePageSpeedView(row);
    // The project's own home page, not any ranking page at a root (`https://blog.example.com/` is
    // another site's home page: before, it stood as the baseline of example.com).
    const homeRow = pageRows.find((r) => r.url === home) ?? pageRows.find((r) => r.url === `https://www.${domain}/`);
    if (homeRow) return { baseline: pagePageSpeedView(homeRow), pages };
    const [snapshot] = await this.reader.pageSpeedOfDomains([domain], 'domain');
    return { baseline: snapshot ? pagePageSpeedView(snapshot, 'domain') : null, pages };
  }
}
