/** `YYYY-MM-DD` that names a real calendar day (2026-02-30 does not). */
export function isCalendarDate(value: unknown): value is string {
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const date = new Date(`${value}T00:00:00.000Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
}

/** The UTC day of a moment, as `YYYY-MM-DD`. */
export const utcDay = (moment: Date) => moment.toISOString().slice(0, 10);

/** `YYYY-MM-DD` as that day at 00:00:00 UTC, in ISO 8601. */
export const startOfUtcDay = (day: string) => `${day}T00:00:00.000Z`;
