import { pagesOf } from './keyword-pages';
import type { DayRange, LatestCheck, RankingHistoryReader } from './ranking-history.reader';

/**
 * The most day cells one query of the full export asks for. A cell comes back as a few bytes of
 * text (`;12`), so a page is about a megabyte in chDB: a year of daily checks gives pages of 1,000
 * keywords, a ten-year window pages of 109. Fewer, bigger queries matter: each costs some
 * milliseconds of planning and reads its keywords' granules of every monthly partition.
 */
export const FULL_EXPORT_CELLS_PER_QUERY = 400_000;
export const FULL_EXPORT_KEYWORDS_PER_QUERY = 1_000;

export const fullExportKeywordsPerQuery = (days: number) =>
  Math.max(1, Math.min(FULL_EXPORT_KEYWORDS_PER_QUERY, Math.floor(FULL_EXPORT_CELLS_PER_QUERY / Math.max(1, days))));

/** What the full export needs of every keyword: its day cells, already text, and its latest two checks, read together. */
export interface FullExportHistory {
  /** The day cells (`days` columns of the header) joined by the separator; undefined without a successful check in the range. */
  cellsOf(keywordId: string): string | undefined;
  latestOf(keywordId: string): LatestCheck | undefined;
}

/**
 * Reads the full export's cells page by page in keyword-id order, the table's sort order, so that a
 * page's keywords lie side by side in ClickHouse (pages in export order would each read most of a
 * year's granules); the caller writes the lines in export order. The cells are kept as one string
 * per keyword, as ClickHouse wrote them: about 3 bytes a cell, a year of the bench's 3,500 keywords
 * in 4 MB, and nothing to parse or format per cell in JavaScript.
 */
export async function loadFullExportHistory(
  history: RankingHistoryReader,
  projectId: string,
  keywordIds: readonly string[],
  range: DayRange,
  days: readonly string[],
  separator: string,
): Promise<FullExportHistory> {
  const cells = new Map<string, string>();
  const latest = new Map<string, LatestCheck>();
  for (const page of pagesOf([...keywordIds].sort(), fullExportKeywordsPerQuery(days.length))) {
    // The cells and the latest checks of a page in one statement: one snapshot for each line.
    const read = await history.fullExportPage(projectId, page, range, days, separator);
    for (const [keywordId, text] of read.cells) cells.set(keywordId, text);
    for (const [keywordId, check] of read.latest) latest.set(keywordId, check);
  }
  return { cellsOf: (keywordId) => cells.get(keywordId), latestOf: (keywordId) => latest.get(keywordId) };
}
