/**
 * Local calendar days as plain integers (days since 1970-01-01), so that "every 3 days from the
 * creation day" is subtraction and a modulo, whatever the time zone. A day number names a calendar
 * day, not an instant: the time zone is applied only when a day is turned into an instant.
 */
export const DAY_MS = 86_400_000;

export interface CalendarDate {
  year: number;
  /** 1-12 */
  month: number;
  /** 1-31 */
  day: number;
}

/** Modulo that stays non-negative for negative numbers (days before 1970, days before an anchor). */
export const mod = (n: number, m: number) => ((n % m) + m) % m;

export const dayNumber = ({ year, month, day }: CalendarDate): number => Date.UTC(year, month - 1, day) / DAY_MS;

export function calendarDate(dayNo: number): CalendarDate {
  const date = new Date(dayNo * DAY_MS);
  return { year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate() };
}

/** 0 = Sunday … 6 = Saturday; 1970-01-01 was a Thursday. */
export const weekdayOf = (dayNo: number) => mod(dayNo + 4, 7);

/** `YYYY-MM-DD`: sorts like the days it names, and is the slot key the scheduler deduplicates on. */
export const dayKey = (dayNo: number) => new Date(dayNo * DAY_MS).toISOString().slice(0, 10);
