/**
 * When a project's scheduled SERP check is due. A slot is a local calendar day on which the project
 * is due (see due-days.ts); its instant is that day at `updateTime`:00 on the project's wall clock
 * (see zoned-time.ts for skipped and repeated hours, and slotOn for a gap that ends the day). Pure:
 * `now` is always passed in.
 */
import type { ProjectSettings } from '@rank/projects/domain/project-settings';
import { invalid } from '@rank/domain/domain-error';
import { isDueDay, LONGEST_GAP_DAYS } from './due-days';
import { calendarDate, dayKey, dayNumber } from './local-day';
import { localDateTime, zonedInstant } from './zoned-time';

export interface ScheduleSlot {
  /** The local day, `YYYY-MM-DD`: the scheduler requests each key at most once. */
  key: string;
  dueAt: Date;
}

export type Schedule = Pick<ProjectSettings, 'updateFrequency' | 'customUpdateDays' | 'updateTime' | 'updateTimezone'> & {
  /** ISO 8601 instant the project was created: no slot before it, and the anchor of periodic frequencies. */
  createdAt: string;
  /**
   * The zone the project was created in: periodic frequencies count from its creation day there, a
   * calendar date that a later zone change does not move. Unset: the current zone.
   */
  creationZone?: string;
};

interface ResolvedSchedule {
  schedule: Schedule;
  timeZone: string;
  createdAtMs: number;
  /** The creation day in the zone of creation, as a day number. */
  anchorDay: number;
}

const localDay = (instant: Date | number, timeZone: string) => dayNumber(localDateTime(instant, timeZone));

/** The local day (`YYYY-MM-DD`) an instant falls on, on a clock in `timeZone`. */
export const localDayKey = (instant: Date | number, timeZone: string) => dayKey(localDay(instant, timeZone));

function resolve(schedule: Schedule): ResolvedSchedule {
  const timeZone = schedule.updateTimezone || 'UTC';
  const createdAtMs = Date.parse(schedule.createdAt);
  if (Number.isNaN(createdAtMs)) throw invalid(`createdAt must be an ISO 8601 instant (got "${schedule.createdAt}")`);
  const hour = schedule.updateTime;
  if (!Number.isInteger(hour) || hour < 0 || hour > 23) throw invalid(`updateTime must be an hour 0-23 (got ${hour})`);
  // The creation day in the zone of creation, a calendar date: a later zone change keeps the cadence.
  return { schedule, timeZone, createdAtMs, anchorDay: localDay(createdAtMs, schedule.creationZone || timeZone) };
}

// The scheduler asks every minute for every project, and the answer for a day changes only with
// its zone and hour, so recent answers are kept (a bounded memo: dropped wholesale when full).
const dueAtMemo = new Map<string, number>();
const DUE_AT_MEMO_SIZE = 50_000;

function slotOn(resolved: ResolvedSchedule, dayNo: number): ScheduleSlot {
  const hour = resolved.schedule.updateTime;
  const memoKey = `${resolved.timeZone} ${dayNo} ${hour}`;
  let dueAtMs = dueAtMemo.get(memoKey);
  if (dueAtMs === undefined) {
    dueAtMs = zonedInstant({ ...calendarDate(dayNo), hour }, resolved.timeZone).getTime();
    // An hour in a spring gap runs at the first instant after the gap, unless the gap ends the day
    // (Greenland springs from 23:00 to 00:00): that instant is the next day, whose own slot would
    // then count as decided (a decided slot's day is read from its due time), and that day went
    // unchecked. The slot runs at the last second before the gap instead, on a day of its own.
    if (localDay(dueAtMs, resolved.timeZone) > dayNo) dueAtMs -= 1000;
    if (dueAtMemo.size >= DUE_AT_MEMO_SIZE) dueAtMemo.clear();
    dueAtMemo.set(memoKey, dueAtMs);
  }
  return { key: dayKey(dayNo), dueAt: new Date(dueAtMs) };
}

/**
 * The most recent slot with `dueAt <= now`, or null if there is none since the project was created.
 *
 * Only the latest: after downtime the scheduler requests this one slot, never the backlog of the
 * slots it missed. A check reads today's result page whatever slot it was meant for, so a backlog
 * would produce several identical snapshots of now, each paid for in tokens.
 */
export function latestDueSlot(schedule: Schedule, now: Date): ScheduleSlot | null {
  const resolved = resolve(schedule);
  const today = localDay(now, resolved.timeZone);
  // From tomorrow back: a DST transition near midnight can put a slot's instant on a neighbouring
  // local day, and a due day is always found within the longest gap (+ the two days at the edges).
  for (let day = today + 1; day >= today - LONGEST_GAP_DAYS - 1; day--) {
    if (!isDueDay(schedule, day, resolved.anchorDay)) continue;
    const slot = slotOn(resolved, day);
    if (slot.dueAt.getTime() > now.getTime()) continue;
    // Slots only get earlier from here, so if this one predates the project, so do all the rest.
    return slot.dueAt.getTime() >= resolved.createdAtMs ? slot : null;
  }
  return null; // only a custom schedule with no weekdays gets here
}

/**
 * The first slot with `dueAt > now` that is not before the project's creation (for display, and to
 * tell when the next check is). Throws for a custom schedule with no weekdays: it has none.
 */
export function nextSlot(schedule: Schedule, now: Date): ScheduleSlot {
  const resolved = resolve(schedule);
  // "after now and not before creation" in one bound (creation itself is a valid instant).
  const after = Math.max(now.getTime(), resolved.createdAtMs - 1);
  const from = localDay(after, resolved.timeZone) - 1; // yesterday: see latestDueSlot
  for (let day = from; day <= from + LONGEST_GAP_DAYS + 2; day++) {
    if (!isDueDay(schedule, day, resolved.anchorDay)) continue;
    const slot = slotOn(resolved, day);
    if (slot.dueAt.getTime() > after) return slot;
  }
  throw invalid('A custom update frequency needs at least one weekday in customUpdateDays (0-6, 0 = Sunday)');
}
