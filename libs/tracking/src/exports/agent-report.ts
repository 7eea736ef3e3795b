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

export interface AgentReportInput {
  project: ProjectRecord;
  keywords: readonly TrackedKeyword[];
}

/**
 * The Markdown report for an agent or a person: project, rankings, traffic, competitors, performance.
 * Built only from stored data (no "generated at" time), so the same data gives the same bytes.
 * The keyword table is written page by page, after a first paged pass has gathered the totals.
 */
export async function* agentReport(history: RankingHistoryReader, { project, keywords }: AgentReportInput): AsyncGenerator<string> {
  const { settings } = project;
  const ordered = inExportOrder(keywords);
  const tally = new RankingTally();
  for (const page of pagesOf(ordered, MAX_KEYWORDS_PER_PAGE)) {
    const latest = await history.latestChecks(project.projectId, page.map((k) => k.keywordId));
    for (const keyword of page) tally.add(keyword, latest.get(keyword.keywordId));
  }

  yield `# Rank-tracking report: ${mdText(settings.name)}\n\n`;
  yield projectSection(project);
  yield rankingsSection(settings, ordered.length, tally);
  if (ordered.length > 0) {
    yield '### Keywords\n\n'
      + 'Position: the latest successful check (0: not within the top ' + settings.serpTop + ' checked; –: no successful check yet). '
      + 'Change: places gained since the check before (positive is better; – when either check did not rank).\n\n'
      + mdTable(['Keyword', 'Country', 'Language', 'Position', 'Change', 'URL', 'Checked'], ['left', 'left', 'left', 'right', 'right', 'left', 'left']);
    for (const page of pagesOf(ordered, MAX_KEYWORDS_PER_PAGE)) {
      const latest = await history.latestChecks(project.projectId, page.map((k) => k.keywordId));
      yield page.map((keyword) => {
        const check = latest.get(keyword.keywordId);
        return mdRow([
          mdText(keyword.value), keyword.geoCode, keyword.langCode,
          check ? String(check.position) : '–', mdChange(changeOf(check)), mdUrl(check?.url ?? ''), check?.day ?? '–',
        ]);
      }).join('');
    }
    yield '\n';
  }
  yield '## Traffic\n\nNo traffic data exists yet for this project: the service does not collect traffic statistics for it yet.\n\n';
  yield await competitorsSection(history, project, ordered, tally.latestDay);
  yield '## Performance\n\nNo page-performance data (PageSpeed, Core Web Vitals) exists yet for this project.\n';
}

function projectSection({ settings, competitors, createdAt }: ProjectRecord): string {
  const list = (items: readonly string[]) => (items.length === 0 ? 'none' : items.map(mdText).join(', '));
  const frequency = settings.updateFrequency === 'custom'
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
  text += [
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
  text += moversTable('### Biggest movers down (latest check vs the one before)', tally.down, 'No keyword lost places in its latest check.');
  return text;
}

function moversTable(title: string, movers: readonly Mover[], none: string): string {
  if (movers.length === 0) return `${title}\n\n${none}\n\n`;
  return `${title}\n\n${mdTable(['Keyword', 'Country', 'Language', 'Position', 'Change'], ['left', 'left', 'left', 'right', 'right'])}`
    + movers.map((m) => mdRow([mdText(m.keyword.value), m.keyword.geoCode, m.keyword.langCode, String(m.position), mdChange(m.change)])).join('')
    + '\n';
}

async function competitorsSection(history: RankingHistoryReader, project: ProjectRecord, keywords: readonly TrackedKeyword[], latestDay: string | null): Promise<string> {
  const title = '## Competitors\n\n';
  if (project.competitors.length === 0) return `${title}No competitor domains are tracked for this project.\n\n`;
  if (latestDay === null) {
    return `${title}Tracked competitors: ${project.competitors.map(mdText).join(', ')}. No ranking data exists yet for them: no keyword has had a successful check.\n\n`;
  }
  const { checkedKeywords, project: own, domains } = await history.standingsOn(
    project.projectId, keywords.map((k) => k.keywordId), latestDay, project.competitors,
  );
  const row = (label: string, s: DomainStanding) => mdRow([
    label, String(s.ranking), String(s.top3), String(s.top10), s.ranking === 0 ? '–' : formatAverage(s.averagePosition),
  ]);
  const empty: DomainStanding = { ranking: 0, top3: 0, top10: 0, averagePosition: 0 };
  return `${title}Positions on the latest check day, ${latestDay}, over the ${checkedKeywords} keyword(s) checked that day `
    + `(each keyword's latest successful check of the day). A domain ranks for a keyword when it or one of its subdomains is an organic `
    + `result within the top ${project.settings.serpTop}; the average is over the keywords it ranks for. `
    + 'Traffic of the competitors: no data exists yet.\n\n'
    + mdTable(['Domain', 'Keywords ranking', 'Top 3', 'Top 10', 'Average position'], ['left', 'right', 'right', 'right', 'right'])
    + row(`${mdText(project.settings.domain)} (this project)`, own)
    + project.competitors.map((c) => row(mdText(c), domains.get(c) ?? empty)).join('')
    + '\n';
}
