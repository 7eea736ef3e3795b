/**
 * The two time-zone questions the schedule asks, answered with `Intl` alone (the project has no date
 * library): what the wall clock shows at an instant, and at which instant the wall clock shows a
 * given time. Precision is one second; milliseconds of an instant are ignored.
 */
import { CalendarDate, DAY_MS } from './local-day';

export interface LocalDateTime extends CalendarDate {
  /** 0-23 */
  hour: number;
  minute: number;
  second: number;
}

// Building a DateTimeFormat costs far more than using one, and the scheduler asks every minute for
// every project, so one formatter per zone is kept for the life of the process.
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let format = formatters.get(timeZone);
  if (!format) {
    // h23, not hour12: false — the latter prints midnight as "24" on some ICU versions.
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timeZone, format);
  }
  return format;
}

// en-US prints "5/10/2026, 14:00:00". Matching that string is four times faster than formatToParts,
// which matters at several calls per project per minute; formatToParts remains the fallback should
// an ICU version ever print something else.
const EN_US = /^(\d+)\/(\d+)\/(\d+), (\d+):(\d+):(\d+)$/;

/** The wall-clock date and time in `timeZone` at `instant`. Throws RangeError for an unknown zone. */
export function localDateTime(instant: Date | number, timeZone: string): LocalDateTime {
  const format = formatter(timeZone);
  const match = EN_US.exec(format.format(instant));
  if (match) {
    const [, month, day, year, hour, minute, second] = match.map(Number);
    return { year, month, day, hour, minute, second };
  }
  const parts: Record<string, number> = {};
  for (const part of format.formatToParts(instant)) {
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  }
  return { year: parts.year, month: parts.month, day: parts.day, hour: parts.hour, minute: parts.minute, second: parts.second };
}

/** A wall-clock time read as if it were UTC: lets wall times and instants be compared as numbers. */
const wallMs = (t: CalendarDate & Partial<LocalDateTime>) =>
  Date.UTC(t.year, t.month - 1, t.day, t.hour ?? 0, t.minute ?? 0, t.second ?? 0);

const wallAt = (instantMs: number, timeZone: string) => wallMs(localDateTime(instantMs, timeZone));

/** How far `timeZone`'s wall clock is ahead of UTC at an instant, in ms (+02:00 → 7 200 000). */
function offsetAt(instantMs: number, timeZone: string): number {
  const wholeSecond = instantMs - (((instantMs % 1000) + 1000) % 1000);
  return wallAt(wholeSecond, timeZone) - wholeSecond;
}

/**
 * The instant at which `timeZone`'s wall clock shows `local` (minute and second default to 0).
 * - A time skipped by a spring-forward gap resolves to the first instant after the gap (02:30 in
 *   Berlin on 2026-03-29 → 03:00 CEST), not to "the same distance past the gap" as `Date` would:
 *   the product rule is "the first valid instant", and it keeps every day's slot on the clock hour.
 * - A time shown twice in a fall-back overlap resolves to its first occurrence.
 * - A whole skipped day (Pacific/Apia, 2011-12-30) is one long gap, resolved the same way.
 */
export function zonedInstant(local: CalendarDate & Partial<LocalDateTime>, timeZone: string): Date {
  const wall = wallMs(local);
  // Zones change their offset at most once within a day or so, and offsets lie within ±14 h, so
  // the offsets a day either side are the only candidates: equal almost always, different when a
  // transition falls near `wall`.
  const before = offsetAt(wall - DAY_MS, timeZone);
  const after = offsetAt(wall + DAY_MS, timeZone);
  const matches = [...new Set([before, after])]
    .map((offset) => wall - offset)
    .filter((candidate) => wallAt(candidate, timeZone) === wall)
    .sort((a, b) => a - b);
  if (matches.length > 0) return new Date(matches[0]);
  return new Date(endOfGap(wall, before, after, timeZone));
}

/**
 * `wall` was skipped: the clock jumped from offset `before` to `after` at some transition instant T
 * with T + before <= wall < T + after, so T lies in [wall - after, wall - before]. T is the first
 * instant whose wall clock is past `wall`; found by bisection over whole seconds (≤ 17 steps a day).
 */
function endOfGap(wall: number, before: number, after: number, timeZone: string): number {
  const isPast = (instantMs: number) => wallAt(instantMs, timeZone) > wall;
  let lo = wall - after; // not past: still on the old offset, the clock shows wall - after + before
  let hi = wall - before; // past: on the new offset, the clock shows wall - before + after
  // Two transitions within a day would break the bracket; no zone does that, but fall back to the
  // `Date` reading (old offset) rather than return nonsense.
  if (isPast(lo) || !isPast(hi)) return wall - before;
  while (hi - lo > 1000) {
    const mid = lo + Math.floor((hi - lo) / 2000) * 1000;
    if (isPast(mid)) hi = mid;
    else lo = mid;
  }
  return hi;
}
