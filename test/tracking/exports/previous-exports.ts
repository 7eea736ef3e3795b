import type { ReadStore } from '@rank/read-store/read-store.port';
import type { PositionSummary } from '@rank/tracking/exports/ranking-figures';
import type { DayRange } from '@rank/tracking/exports/ranking-history.reader';

/**
 * The exports' history as it was read before issue 15, kept verbatim as the reference the identity
 * tests compare today's reads and files against: each keyword's day positions (argMax per day over
 * `keyword_updates`), summed up in JavaScript, pages sized by a cell budget.
 */
const PREVIOUS_DAILY_POSITIONS = `SELECT keywordId, groupArray(day) AS days, groupArray(position) AS positions
       FROM (
         SELECT keyword_id AS keywordId, toString(toDate(checked_at)) AS day, argMax(position, (checked_at, check_id)) AS position
         FROM keyword_updates
         WHERE project_id = {projectId:String} AND keyword_id IN {keywordIds:Array(String)} AND status = 'success'
           AND toDate(checked_at) BETWEEN {startDate:Date} AND {endDate:Date}
         GROUP BY keyword_id, day
       )
       GROUP BY keywordId`;

/** keywordId -> day -> the position of that day's latest successful check, for days in the range. */
export async function previousDailyPositions(
  store: ReadStore,
  projectId: string,
  keywordIds: readonly string[],
  range: DayRange,
): Promise<Map<string, Map<string, number>>> {
  if (keywordIds.length === 0) return new Map();
  const rows = await store.query<{ keywordId: string; days: string[]; positions: number[] }>(PREVIOUS_DAILY_POSITIONS, {
    projectId,
    keywordIds,
    ...range,
  });
  return new Map(rows.map((row) => [row.keywordId, new Map(row.days.map((day, i) => [day, Number(row.positions[i])]))]));
}

/** The summary of a keyword's day positions: the days not ranking (0) counted apart, the average over the ranked days. */
export function previousSummary(dayPositions: Iterable<number>): PositionSummary {
  let checkedDays = 0;
  let notRankingDays = 0;
  let best: number | null = null;
  let worst: number | null = null;
  let sum = 0;
  for (const position of dayPositions) {
    checkedDays++;
    if (position === 0) {
      notRankingDays++;
      continue;
    }
    best = best === null ? position : Math.min(best, position);
    worst = worst === null ? position : Math.max(worst, position);
    sum += position;
  }
  const ranked = checkedDays - notRankingDays;
  return { checkedDays, notRankingDays, best, worst, average: ranked === 0 ? null : sum / ranked };
}

/** Keywords a page: at most 200, and at most 100,000 (keyword, day) cells. */
export const previousKeywordsPerPage = (days: number) => Math.max(1, Math.min(200, Math.floor(100_000 / Math.max(1, days))));
