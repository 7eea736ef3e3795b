import type { TrackedKeyword } from '@rank/projects/domain/project-content.events';
import type { ProjectSettings } from '@rank/projects/domain/project-settings';
import type { ProjectRecord } from '@rank/projects/domain/workspace';
import { inExportOrder, MAX_KEYWORDS_PER_PAGE, pagesOf } from './keyword-pages';
import { mdChange, mdRow, mdTable, mdText, mdUrl } from './markdown';
import { changeOf, formatAverage } from './ranking-figures';
import type { DomainStanding, LatestCheck, RankingHistoryReader } from './ranking-history.reader';

/** How many keywords each "biggest movers" list shows. */
export const MOVERS_SHOWN = 5;

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

interface Mover {
  keyword: TrackedKeyword;
  position: number;
  change: number;
}

/** What the rankings section states, gathered page by page so that no page outlives its turn. */
class RankingTally {
  checked = 0;
  top3 = 0;
  top10 = 0;
  top100 = 0;
  notRanking = 0;
  private positionSum = 0;
  latestDay: string | null = null;
  readonly up: Mover[] = [];
  readonly down: Mover[] = [];

  add(keyword: TrackedKeyword, check: LatestCheck | undefined): void {
    if (!check) return;
    this.checked++;
    if (this.latestDay === null || check.day > this.latestDay) this.latestDay = check.day;
    if (check.position === 0) {
      this.notRanking++;
    } else {
      this.positionSum += check.position;
      if (check.position <= 3) this.top3++;
      if (check.position <= 10) this.top10++;
      if (check.position <= 100) this.top100++;
    }
    const change = changeOf(check);
    if (change !== null && change > 0) keepBiggest(this.up, { keyword, position: check.position, change });
    if (change !== null && change < 0) keepBiggest(this.down, { keyword, position: check.position, change });
  }

  get averagePosition(): number | null {
    const ranking = this.checked - this.notRanking;
    return ranking === 0 ? null : this.positionSum / ranking;
  }
}

/** Biggest move first; ties in export order (keywords arrive in it), so the report is deterministic. */
function keepBiggest(movers: Mover[], mover: Mover): void {
  const at = movers.findIndex((m) => Math.abs(m.change) < Math.abs(mover.change));
  movers.splice(at === -1 ? movers.length : at, 0, mover);
  if (movers.length > MOVERS_SHOWN) movers.pop();
}

/** One domain's stored traffic: the months oldest first (`YYYY-MM`), engagement as the traffic check shows it. */
export interface ReportTraffic {
  totalVisits: number;
  months: readonly { month: string; visits: number | null }[];
  bounceRate: number | null;
  avgVisitDuration: number | null;
  fetchedAt: string;
}

/** A page-speed record: scores 0–100, times in ms, CLS unitless. */
export interface ReportPageSpeed {
  url: string;
  source: string;
  performanceScore: number | null;
  accessibilityScore: number | null;
  bestPracticesScore: number | null;
  seoScore: number | null;
  largestContentfulPaint: number | null;
  firstContentfulPaint: number | null;
  totalBlockingTime: number | null;
  cumulativeLayoutShift: number | null;
  cruxScore: number | null;
  cruxFieldData: { LCP: { p75: number | null }; CLS: { p75: number | null }; INP: { p75: number | null } } | null;
  measuredAt: string;
}

/** The stored domain data the traffic, competitor and performance sections state (the domains context's read models). */
export interface ReportDomainData {
  /** By normalised domain: the project's and its competitors' stored traffic (domains without data are absent). */
  traffic: ReadonlyMap<string, ReportTraffic>;
  /** The project domain's home-page snapshot. */
  homePage: ReportPageSpeed | null;
  /** The project's ranking pages that have been measured, by URL. */
  pages: readonly ReportPageSpeed[];
  /** The origin's latest CrUX collection period (p75: LCP and INP in ms, CLS unitless). */
  crux: { date: string; lcp: number | null; cls: number | null; inp: number | null } | null;
}

export const NO_DOMAIN_DATA: ReportDomainData = { traffic: new Map(), homePage: null, pages: [], crux: null };

export interface AgentReportInput {
  project: ProjectRecord;
  keywords: readonly TrackedKeyword[];
  /** The project's domain, normalised as the domain data is keyed. */
  domain?: string;
  domainData?: ReportDomainData;
}

/**
 * The Markdown report for an agent or a person: project, rankings, traffic, competitors, performance.
 * Built only from stored data (no "generated at" time), so the same data gives the same bytes.
 * The keyword table is written page by page, after a first paged pass has gathered the totals.
 */
export async function* agentReport(
  history: RankingHistoryReader,
  { project, keywords, domain = project.settings.domain, domainData = NO_DOMAIN_DATA }: AgentReportInput,
): AsyncGenerator<string> {
  const { settings } = project;
  const ordered = inExportOrder(keywords);
  const tally = new RankingTally();
  for (const page of pagesOf(ordered, MAX_KEYWORDS_PER_PAGE)) {
    const latest = await history.latestChecks(
      project.projectId,
      page.map((k) => k.keywordId),
    );
    for (const keyword of page) tally.add(keyword, latest.get(keyword.keywordId));
  }

  yield `# Rank-tracking report: ${mdText(settings.name)}\n\n`;
  yield projectSection(project);
  yield rankingsSection(settings, ordered.length, tally);
  if (ordered.length > 0) {
    yield (
      '### Keywords\n\n' +
      'Position: the latest successful check (0: not within the top ' +
      settings.serpTop +
      ' checked; –: no successful check yet). ' +
      'Change: places gained since the check before (positive is better; – when either check did not rank).\n\n' +
      mdTable(
        ['Keyword', 'Country', 'Language', 'Position', 'Change', 'URL', 'Checked'],
        ['left', 'left', 'left', 'right', 'right', 'left', 'left'],
      )
    );
    for (const page of pagesOf(ordered, MAX_KEYWORDS_PER_PAGE)) {
      const latest = await history.latestChecks(
        project.projectId,
        page.map((k) => k.keywordId),
      );
      yield page
        .map((keyword) => {
          const check = latest.get(keyword.keywordId);
          return mdRow([
            mdText(keyword.value),
            keyword.geoCode,
            keyword.langCode,
            check ? String(check.position) : '–',
            mdChange(changeOf(check)),
            mdUrl(check?.url ?? ''),
            check?.day ?? '–',
          ]);
        })
        .join('');
    }
    yield '\n';
  }
  yield trafficSection(domain, domainData.traffic.get(domain));
  yield await competitorsSection(history, project, ordered, tally.latestDay, domain, domainData.traffic);
  yield performanceSection(domainData);
}

const thousandsOf = (value: number) => Math.round(value).toLocaleString('en-US');
const orDash = (value: number | null, unit = '') => (value === null ? '–' : `${thousandsOf(value)}${unit}`);
const clsOf = (value: number | null) => (value === null ? '–' : value.toFixed(3).replace(/0+$/, '').replace(/\.$/, ''));

function trafficSection(domain: string, traffic: ReportTraffic | undefined): string {
  const title = '## Traffic\n\n';
  if (!traffic) {
    return (
      `${title}No traffic data is stored for ${mdText(domain)} yet: it is fetched in the background when the project is created or changed, ` +
      'from the traffic provider when one is configured.\n\n'
    );
  }
  const engagement = [
    traffic.bounceRate === null ? null : `bounce rate ${(traffic.bounceRate * 100).toFixed(1)}%`,
    traffic.avgVisitDuration === null ? null : `average visit ${Math.round(traffic.avgVisitDuration)} s`,
  ].filter((part) => part !== null);
  return (
    `${title}Visits to ${mdText(domain)} (worldwide, all devices, subdomains included), fetched ${traffic.fetchedAt.slice(0, 10)}:\n\n` +
    `- Total over the last ${traffic.months.length} month(s): ${thousandsOf(traffic.totalVisits)}\n` +
    (engagement.length > 0 ? `- Engagement: ${engagement.join(', ')}\n` : '') +
    '\n' +
    mdTable(['Month', 'Visits'], ['left', 'right']) +
    traffic.months.map((m) => mdRow([m.month, orDash(m.visits)])).join('') +
    '\n'
  );
}

function performanceSection({ homePage, pages, crux }: ReportDomainData): string {
  let text = '## Performance\n\n';
  if (!homePage && pages.length === 0 && !crux) {
    return (
      `${text}No page-performance data (PageSpeed, Core Web Vitals) is stored for this project yet: the home page is measured in the background ` +
      'when the project is created, and its ranking pages after their checks.\n'
    );
  }
  if (homePage) {
    text +=
      `### Home page (${mdUrl(homePage.url)}, ${homePage.source === 'psi' ? 'PageSpeed Insights' : 'local Lighthouse'}, mobile, ${homePage.measuredAt.slice(0, 10)})\n\n` +
      mdTable(['Measure', 'Value'], ['left', 'right']) +
      [
        ['Performance score', orDash(homePage.performanceScore)],
        ['Accessibility score', orDash(homePage.accessibilityScore)],
        ['Best-practices score', orDash(homePage.bestPracticesScore)],
        ['SEO score', orDash(homePage.seoScore)],
        ['Largest Contentful Paint (lab)', orDash(homePage.largestContentfulPaint, ' ms')],
        ['First Contentful Paint (lab)', orDash(homePage.firstContentfulPaint, ' ms')],
        ['Total Blocking Time (lab)', orDash(homePage.totalBlockingTime, ' ms')],
        ['Cumulative Layout Shift (lab)', clsOf(homePage.cumulativeLayoutShift)],
        ['Core Web Vitals passed (field, % of LCP, INP, CLS good at p75)', orDash(homePage.cruxScore)],
        ...(homePage.cruxFieldData
          ? [
              ['LCP p75 (field)', orDash(homePage.cruxFieldData.LCP.p75, ' ms')],
              ['INP p75 (field)', orDash(homePage.cruxFieldData.INP.p75, ' ms')],
              ['CLS p75 (field)', clsOf(homePage.cruxFieldData.CLS.p75)],
            ]
          : []),
      ]
        .map((row) => mdRow(row))
        .join('') +
      '\n';
  }
  if (crux) {
    text +=
      `Chrome UX Report for the origin, period ending ${crux.date}: LCP p75 ${orDash(crux.lcp, ' ms')}, INP p75 ${orDash(crux.inp, ' ms')}, ` +
      `CLS p75 ${clsOf(crux.cls)}.\n\n`;
  }
  if (pages.length > 0) {
    text +=
      '### Ranking pages\n\n' +
      mdTable(
        ['Page', 'Performance', 'LCP (lab)', 'CLS (lab)', 'TBT (lab)', 'Source', 'Measured'],
        ['left', 'right', 'right', 'right', 'right', 'left', 'left'],
      ) +
      [...pages]
        .sort((a, b) => a.url.localeCompare(b.url))
        .map((p) =>
          mdRow([
            mdUrl(p.url),
            orDash(p.performanceScore),
            orDash(p.largestContentfulPaint, ' ms'),
            clsOf(p.cumulativeLayoutShift),
            orDash(p.totalBlockingTime, ' ms'),
            p.source,
            p.measuredAt.slice(0, 10),
          ]),
        )
        .join('') +
      '\n';
  }
  return text;
}

function competitorTraffic(domain: string, competitors: readonly string[], traffic: ReadonlyMap<string, ReportTraffic>): string {
  const own = traffic.get(domain);
  const row = (label: string, d: string) => {
    const t = traffic.get(d);
    const share = t && own && own.totalVisits > 0 ? `${((t.totalVisits / own.totalVisits) * 100).toFixed(0)}%` : '–';
    return mdRow([label, t ? thousandsOf(t.totalVisits) : '–', share, t ? t.fetchedAt.slice(0, 10) : '–']);
  };
  if (!competitors.some((c) => traffic.has(c)) && !own) return 'No traffic data is stored for this project or its competitors yet.\n\n';
  return (
    '### Traffic of the competitors (visits over the last 12 months; – when not stored)\n\n' +
    mdTable(['Domain', 'Visits', "Of this project's", 'Fetched'], ['left', 'right', 'right', 'left']) +
    row(`${mdText(domain)} (this project)`, domain) +
    competitors.map((c) => row(mdText(c), c)).join('') +
    '\n'
  );
}

function projectSection({ settings, competitors, createdAt }: ProjectRecord): string {
  const list = (items: readonly string[]) => (items.length === 0 ? 'none' : items.map(mdText).join(', '));
  const frequency =
    settings.updateFrequency === 'custom'
      ? `custom: ${settings.customUpdateDays.map((d) => WEEKDAYS[d]).join(', ')}`
      : { daily: 'daily', every3days: 'every 3 days', weekly: 'weekly', biweekly: 'every 2 weeks' }[settings.updateFrequency];
  const rows: [string, string][] = [
    ['Name', mdText(settings.name)],
    ['Domain', mdText(settings.domain)],
    ['Aliases', list(settings.aliases)],
    ['Competitors', list(competitors)],
    ['Checks', `${frequency}, at ${String(settings.updateTime).padStart(2, '0')}:00 ${mdText(settings.updateTimezone)}`],
    ['SERP depth', `top ${settings.serpTop}`],
    ['Shared publicly', settings.shared ? 'yes' : 'no'],
    ['Created', createdAt.slice(0, 10)],
  ];
  return '## Project\n\n' + mdTable(['Setting', 'Value'], ['left', 'left']) + rows.map((r) => mdRow(r)).join('') + '\n';
}

function rankingsSection(settings: ProjectSettings, tracked: number, tally: RankingTally): string {
  let text = '## Rankings\n\n';
  if (tracked === 0) return `${text}No keywords are tracked yet, so no ranking data exists.\n\n`;
  if (tally.checked === 0) {
    return `${text}- Keywords tracked: ${tracked}\n\nNo ranking data exists yet: none of the keywords has had a successful check.\n\n`;
  }
  const average = tally.averagePosition;
  text +=
    [
      `- Keywords tracked: ${tracked}`,
      `- Keywords with a successful check: ${tally.checked}`,
      `- Latest check: ${tally.latestDay}`,
      `- Ranking in the top 3: ${tally.top3}`,
      `- Ranking in the top 10: ${tally.top10}`,
      `- Ranking in the top 100: ${tally.top100}`,
      `- Not ranking (not within the top ${settings.serpTop} checked): ${tally.notRanking}`,
      `- Average position (ranking keywords only): ${average === null ? '–' : formatAverage(average)}`,
    ].join('\n') + '\n\n';
  text += moversTable('### Biggest movers up (latest check vs the one before)', tally.up, 'No keyword gained places in its latest check.');
  text += moversTable(
    '### Biggest movers down (latest check vs the one before)',
    tally.down,
    'No keyword lost places in its latest check.',
  );
  return text;
}

function moversTable(title: string, movers: readonly Mover[], none: string): string {
  if (movers.length === 0) return `${title}\n\n${none}\n\n`;
  return (
    `${title}\n\n${mdTable(['Keyword', 'Country', 'Language', 'Position', 'Change'], ['left', 'left', 'left', 'right', 'right'])}` +
    movers
      .map((m) => mdRow([mdText(m.keyword.value), m.keyword.geoCode, m.keyword.langCode, String(m.position), mdChange(m.change)]))
      .join('') +
    '\n'
  );
}

async function competitorsSection(
  history: RankingHistoryReader,
  project: ProjectRecord,
  keywords: readonly TrackedKeyword[],
  latestDay: string | null,
  domain: string,
  traffic: ReadonlyMap<string, ReportTraffic>,
): Promise<string> {
  const title = '## Competitors\n\n';
  if (project.competitors.length === 0) return `${title}No competitor domains are tracked for this project.\n\n`;
  const trafficPart = competitorTraffic(domain, project.competitors, traffic);
  if (latestDay === null) {
    return (
      `${title}Tracked competitors: ${project.competitors.map(mdText).join(', ')}. No ranking data exists yet for them: no keyword has had a successful check.\n\n` +
      trafficPart
    );
  }
  const {
    checkedKeywords,
    project: own,
    domains,
  } = await history.standingsOn(
    project.projectId,
    keywords.map((k) => k.keywordId),
    latestDay,
    project.competitors,
    project.settings.serpTop,
  );
  const row = (label: string, s: DomainStanding) =>
    mdRow([label, String(s.ranking), String(s.top3), String(s.top10), s.ranking === 0 ? '–' : formatAverage(s.averagePosition)]);
  const empty: DomainStanding = { ranking: 0, top3: 0, top10: 0, averagePosition: 0 };
  return (
    `${title}Positions on the latest check day, ${latestDay}, over the ${checkedKeywords} keyword(s) checked that day ` +
    `(each keyword's latest successful check of the day). A domain ranks for a keyword when it or one of its subdomains is an organic ` +
    `result within the top ${project.settings.serpTop}; the average is over the keywords it ranks for.\n\n` +
    mdTable(['Domain', 'Keywords ranking', 'Top 3', 'Top 10', 'Average position'], ['left', 'right', 'right', 'right', 'right']) +
    row(`${mdText(project.settings.domain)} (this project)`, own) +
    project.competitors.map((c) => row(mdText(c), domains.get(c) ?? empty)).join('') +
    '\n' +
    trafficPart
  );
}
