import type { TrackedKeyword } from '@rank/projects/domain/project-content.events';
import { keywordFilterOf } from '../reads/shared/keyword-filter';
import { CSV_BOM, CSV_LINE_END, CSV_SEPARATOR, csvLine, csvTextField } from './csv';
import { inExportOrder, MAX_KEYWORDS_PER_PAGE, pagesOf } from './keyword-pages';
import { changeOf, formatAverage } from './ranking-figures';
import { loadSummaryHistory } from './summary-history';
import { fullExportKeywordsPerQuery, loadFullExportHistory } from './full-export-history';
import type { DayRange, RankingHistoryReader } from './ranking-history.reader';

export const CSV_FORMATS = ['full', 'summary'] as const;
export type CsvFormat = (typeof CSV_FORMATS)[number];

export interface CsvExportInput {
  projectId: string;
  keywords: readonly TrackedKeyword[];
  /** The keywords the project removed: their rows stay in the read model (see KeywordFilter). */
  removedKeywordIds: readonly string[];
  range: DayRange;
  /** Average monthly searches of the keywords, by keyword id (the research context's stored volumes); absent ones are unknown. */
  volumes(): Promise<ReadonlyMap<string, number | null>>;
}

export const FULL_COLUMNS = ['Keyword', 'SERP', 'Volume', 'URL', 'Change'] as const;
export const SUMMARY_COLUMNS = [
  'Keyword',
  'Current',
  'Best',
  'Worst',
  'Average',
  'Change',
  'Checked days',
  'Days not ranking',
  'URL',
] as const;

const numberOrEmpty = (value: number | null | undefined) => (value === null || value === undefined ? '' : String(value));

/**
 * The export as text chunks: the header first, then one chunk per page of keywords, each fetched only
 * when the previous chunk has been taken (the reply pulls, so a slow client slows the queries down
 * instead of piling rows up in memory).
 */
export function csvExport(history: RankingHistoryReader, format: CsvFormat, input: CsvExportInput): AsyncGenerator<string> {
  return format === 'full' ? fullCsv(history, input) : summaryCsv(history, input);
}

/**
 * `Keyword;SERP;Volume;URL;Change;<day>;<day>...`: one column per day in the window with a successful
 * check of any of the project's keywords, newest first. SERP, URL and Change come from the latest
 * successful check on or before the window's last day, so an export of a past month reads the same
 * tomorrow. A day cell is that day's latest successful check: 0 when not in the depth, empty without one.
 */
async function* fullCsv(history: RankingHistoryReader, { projectId, keywords, range, volumes }: CsvExportInput): AsyncGenerator<string> {
  const ordered = inExportOrder(keywords);
  const keywordIds = ordered.map((k) => k.keywordId);
  const days = await history.checkedDays(projectId, keywordIds, range);
  // The header goes out while the cells are read: the columns are all it needs.
  yield CSV_BOM + csvLine([...FULL_COLUMNS, ...days]);
  const { cellsOf, latestOf } = await loadFullExportHistory(history, projectId, keywordIds, range, days, CSV_SEPARATOR);
  // A keyword without a successful check in the range: every day cell empty.
  const emptyCells = days.length === 0 ? '' : CSV_SEPARATOR.repeat(days.length - 1);
  const lineEnd = (keywordId: string) =>
    days.length === 0 ? CSV_LINE_END : CSV_SEPARATOR + (cellsOf(keywordId) ?? emptyCells) + CSV_LINE_END;
  const volumeOf = await volumes();
  for (const page of pagesOf(ordered, fullExportKeywordsPerQuery(days.length))) {
    let chunk = '';
    for (const keyword of page) {
      const check = latestOf(keyword.keywordId);
      chunk +=
        [
          csvTextField(keyword.value),
          numberOrEmpty(check?.position),
          // Empty means "unknown": no volumes stored for the keyword.
          numberOrEmpty(volumeOf.get(keyword.keywordId)),
          csvTextField(check?.url ?? ''),
          numberOrEmpty(changeOf(check)),
        ].join(CSV_SEPARATOR) + lineEnd(keyword.keywordId);
    }
    yield chunk;
  }
}

/**
 * `Keyword;Current;Best;Worst;Average;Change;Checked days;Days not ranking;URL`. Current, Change and
 * URL as SERP, Change and URL of the full export. Best, Worst and Average are over the window's
 * checked days on which the keyword ranked (one position per day, the day cells of the full export);
 * the days it did not rank are counted in `Days not ranking` instead of dragging the average.
 */
async function* summaryCsv(history: RankingHistoryReader, input: CsvExportInput): AsyncGenerator<string> {
  const { projectId, keywords, removedKeywordIds, range } = input;
  const ordered = inExportOrder(keywords);
  const keywordIds = ordered.map((k) => k.keywordId);
  const counted = keywordFilterOf(keywordIds, removedKeywordIds);
  const { summaryOf, latestOf } = await loadSummaryHistory(history, projectId, keywordIds, range, counted);
  yield CSV_BOM + csvLine([...SUMMARY_COLUMNS]);
  for (const page of pagesOf(ordered, MAX_KEYWORDS_PER_PAGE)) {
    yield page
      .map((keyword) => {
        const check = latestOf(keyword.keywordId);
        const summary = summaryOf(keyword.keywordId);
        return csvLine([
          csvTextField(keyword.value),
          numberOrEmpty(check?.position),
          numberOrEmpty(summary.best),
          numberOrEmpty(summary.worst),
          summary.average === null ? '' : formatAverage(summary.average),
          numberOrEmpty(changeOf(check)),
          String(summary.checkedDays),
          String(summary.notRankingDays),
          csvTextField(check?.url ?? ''),
        ]);
      })
      .join('');
  }
}

/** `example.com_full_2026-01-01_2026-01-31.csv`: the domain is already [a-z0-9.-], the rest is ours. */
export function csvFilename(domain: string, format: CsvFormat, range: DayRange): string {
  const safeDomain = domain.replace(/[^a-z0-9.-]/g, '-') || 'project';
  return `${safeDomain}_${format}_${range.startDate}_${range.endDate}.csv`;
}
