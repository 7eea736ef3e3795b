import { addDays, mondayOf, startOfDay } from '../shared/day-window';
import type { PeriodRow, TrendWindow } from './pages.reader';

/** Spec, Limits: page trend data is 14 points over 90 days. */
export const TREND_POINTS = 14;

export type TrendGranularity = 'week' | 'day';

export interface TrendPoint {
  date: string;
  /** null when the page ranked for no keyword in that period. */
  avgPosition: number | null;
  keywordCount: number;
}

/** Positions are shown with 2 decimals. */
export const roundTo2 = (value: number) => Math.round(value * 100) / 100;

/**
 * The periods of the trend. Weekly: the 14 ISO weeks (Monday start) ending with the current one, the
 * last 90 days rounded out to whole weeks (91 to 97 days). Daily: the 14 days ending today.
 */
export function trendPeriods(today: string): { weeks: string[]; days: string[]; window: TrendWindow } {
  const currentMonday = mondayOf(today);
  const weeks = Array.from({ length: TREND_POINTS }, (_, i) => addDays(currentMonday, (i - TREND_POINTS + 1) * 7));
  const days = Array.from({ length: TREND_POINTS }, (_, i) => addDays(today, i - TREND_POINTS + 1));
  return { weeks, days, window: { from: startOfDay(weeks[0]!), to: startOfDay(addDays(today, 1)), dailyFrom: days[0]! } };
}

/**
 * "Too little data for weekly": the page's whole history in the window fits in the last 14 days, so
 * the 14 daily points show all of it while the weekly series would show two or three points at most.
 * A page with no data in the window keeps the weekly series (all empty points).
 */
export function granularityOf(firstDay: string | undefined, days: readonly string[]): TrendGranularity {
  return firstDay !== undefined && firstDay >= days[0]! ? 'day' : 'week';
}

/** Every period gets a point, so a chart's x axis is always the same 14 periods; empty ones are null. */
export function seriesOf(periods: readonly string[], rows: ReadonlyMap<string, PeriodRow>): TrendPoint[] {
  return periods.map((date) => {
    const row = rows.get(date);
    return { date, avgPosition: row ? roundTo2(row.avgPosition) : null, keywordCount: row?.keywordCount ?? 0 };
  });
}
