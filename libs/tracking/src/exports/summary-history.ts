import type { KeywordFilter } from '../reads/shared/keyword-filter';
import { pagesOf } from './keyword-pages';
import type { PositionSummary } from './ranking-figures';
import type { DayRange, DaySummary, LatestCheck, RankingHistoryReader } from './ranking-history.reader';

/**
 * The most keywords one summary query asks about. A keyword's year comes back as one row of six
 * numbers and its latest two checks as two short rows, so a page this size is about a megabyte in
 * chDB, and a project of a few thousand keywords is read in one pair of queries.
 */
export const SUMMARY_KEYWORDS_PER_QUERY = 5_000;

/** What the summary export needs of every keyword: its day figures over the range and its latest two checks. */
export interface SummaryHistory {
  summaryOf(keywordId: string): PositionSummary;
  latestOf(keywordId: string): LatestCheck | undefined;
}

/**
 * The day figures as the summary shows them: the days not ranking counted apart, the average over the
 * ranked days (the sum is of whole positions, so the same number as adding them up one by one).
 */
export function positionSummaryOf(days: DaySummary | undefined): PositionSummary {
  if (!days) return { checkedDays: 0, notRankingDays: 0, best: null, worst: null, average: null };
  return {
    checkedDays: days.checkedDays,
    notRankingDays: days.checkedDays - days.rankedDays,
    best: days.best,
    worst: days.worst,
    average: days.rankedDays === 0 ? null : days.positionSum / days.rankedDays,
  };
}

/**
 * Reads the summary's figures in keyword-id order (the tables' sort order, so a page's keywords lie
 * side by side) from the day picks, summed up in ClickHouse, and each keyword's latest two checks;
 * the caller writes the lines in export order.
 */
export async function loadSummaryHistory(
  history: RankingHistoryReader,
  projectId: string,
  keywordIds: readonly string[],
  range: DayRange,
  counted: KeywordFilter,
): Promise<SummaryHistory> {
  const days = new Map<string, DaySummary>();
  const latest = new Map<string, LatestCheck>();
  const pages = [...pagesOf([...keywordIds].sort(), SUMMARY_KEYWORDS_PER_QUERY)];
  for (const page of pages) {
    // One statement for both (see summaries): two would run one after the other on chDB. A project
    // that fits one page is read by its keyword filter rather than a list of every id.
    const figures = await history.summaries(projectId, page, range, pages.length === 1 ? counted : { kind: 'only', keywordIds: page });
    for (const [keywordId, summary] of figures.days) days.set(keywordId, summary);
    for (const [keywordId, check] of figures.latest) latest.set(keywordId, check);
  }
  return { summaryOf: (keywordId) => positionSummaryOf(days.get(keywordId)), latestOf: (keywordId) => latest.get(keywordId) };
}
