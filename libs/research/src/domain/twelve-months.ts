import type { MonthlySearches } from './volume.events';

/** One month of a twelve-month window: its figure, or null when the provider gave none for it. */
export interface WindowMonth {
  year: number;
  month: number;
  value: number | null;
}

/**
 * The 12 calendar months ending with the latest month the history has a figure for, oldest first.
 * A month without a figure (a provider skips a month it has no data for) keeps its own place as
 * null, so that every later month stays where it belongs; a history of fewer months starts with
 * nulls. No history, no window.
 */
export function twelveMonthWindow(history: readonly MonthlySearches[]): WindowMonth[] {
  if (history.length === 0) return [];
  const byMonth = new Map(history.map((m) => [m.year * 12 + (m.month - 1), m.value]));
  const last = Math.max(...byMonth.keys());
  return Array.from({ length: 12 }, (_, i) => {
    const index = last - 11 + i;
    return { year: Math.floor(index / 12), month: (index % 12) + 1, value: byMonth.get(index) ?? null };
  });
}

/** The window's figures as the spec's 12 numbers (`trend`, `tr`): a month without a figure counts as 0. */
export function twelveMonthTrend(history: readonly MonthlySearches[]): number[] {
  const window = twelveMonthWindow(history);
  return window.length === 0 ? Array<number>(12).fill(0) : window.map((m) => m.value ?? 0);
}

/** The figures the window has, for an average that a missing month does not pull down. */
export const reportedFigures = (history: readonly MonthlySearches[]): number[] =>
  twelveMonthWindow(history).flatMap((m) => (m.value === null ? [] : [m.value]));

export function averageOf(values: readonly number[]): number | null {
  return values.length === 0 ? null : Math.round(values.reduce((sum, v) => sum + v, 0) / values.length);
}

/**
 * The average monthly searches every read shows of a keyword: the provider's figure, else the
 * rounded average of the months it gave (a provider may give months but no average).
 */
export const averageMonthlySearches = (figures: {
  avgMonthlySearches: number | null;
  history: readonly MonthlySearches[];
}): number | null => figures.avgMonthlySearches ?? averageOf(reportedFigures(figures.history));
