import type { LatestCheck } from './ranking-history.reader';

/**
 * The numbers the exports derive from positions. Position 0 is "not within the scraped depth": it is
 * shown as 0 where a position is shown, but never averaged, compared or counted as a rank, because it
 * has no place on the scale (0 would read as better than 1, depth + 1 would invent a rank).
 */

/**
 * Places gained since the check before the latest: previous minus latest, so an improvement is
 * positive (7 -> 3 is +4). null when there is no earlier check, or when either check did not rank:
 * entering or leaving the depth is not a number of places (the position columns show the 0).
 */
export function changeOf(check: LatestCheck | undefined): number | null {
  if (!check || check.previousPosition === null) return null;
  if (check.position === 0 || check.previousPosition === 0) return null;
  return check.previousPosition - check.position;
}

/** A keyword's positions over a window, one per checked day (that day's latest successful check). */
export interface PositionSummary {
  checkedDays: number;
  notRankingDays: number;
  /** Over the days it ranked; null when it never ranked. */
  best: number | null;
  worst: number | null;
  average: number | null;
}

/** An average position with one decimal and a point (`7.5`, `3.0`): exact enough, and parseable anywhere. */
export const formatAverage = (average: number) => (Math.round(average * 10) / 10).toFixed(1);
