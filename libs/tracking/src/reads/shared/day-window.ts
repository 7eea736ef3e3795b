import { utcDay } from '@rank/domain/calendar-date';
import { invalid } from '@rank/domain/domain-error';

/** The default length of a ranking window (spec, Limits: "last 30 days"). */
export const DEFAULT_WINDOW_DAYS = 30;

const DAY_MS = 86_400_000;

/** An inclusive range of UTC days, and the half-open range of moments it covers, for SQL. */
export interface DayWindow {
  startDate: string;
  endDate: string;
  /** `startDate` at 00:00:00.000 UTC. */
  from: Date;
  /** The day after `endDate` at 00:00:00.000 UTC (exclusive), so the whole of `endDate` is in. */
  to: Date;
}

export const addDays = (day: string, days: number): string => utcDay(new Date(Date.parse(`${day}T00:00:00.000Z`) + days * DAY_MS));

export const startOfDay = (day: string): Date => new Date(`${day}T00:00:00.000Z`);

/** The Monday (ISO week start) of a UTC day. */
export function mondayOf(day: string): string {
  const weekday = startOfDay(day).getUTCDay(); // 0 = Sunday
  return addDays(day, -((weekday + 6) % 7));
}

/**
 * The window of a ranking read. `endDate` defaults to today (UTC, from the injected clock);
 * `startDate` defaults to 30 days before `endDate`, which is "30 days ago" when both are left out.
 * Counting back from `endDate` rather than from today means `?endDate=2025-06-30` alone gives June,
 * instead of a window that ends before it starts. Both days are included.
 */
export function resolveDayWindow(input: { startDate?: string; endDate?: string }, now: Date): DayWindow {
  const endDate = input.endDate ?? utcDay(now);
  const startDate = input.startDate ?? addDays(endDate, -DEFAULT_WINDOW_DAYS);
  if (startDate > endDate) throw invalid(`startDate (${startDate}) must not be after endDate (${endDate})`);
  return { startDate, endDate, from: startOfDay(startDate), to: startOfDay(addDays(endDate, 1)) };
}
