/**
 * Which local calendar days a project is due on, by its frequency. Pure day arithmetic: no time
 * zone and no time of day here (see due-slot.ts for those).
 */
import type { ProjectSettings, UpdateFrequency } from '@rank/projects/domain/project-settings';
import { assertNever } from '@rank/domain/domain-error';
import { mod, weekdayOf } from './local-day';

export type DayRule = Pick<ProjectSettings, 'updateFrequency' | 'customUpdateDays'>;

const PERIOD_DAYS: Record<Exclude<UpdateFrequency, 'custom'>, number> = { daily: 1, every3days: 3, weekly: 7, biweekly: 14 };

/**
 * Whether local day `dayNo` is due. Periodic frequencies count from `anchorDay`, the creation day
 * in the project's zone: counting from a fixed day (not from the last check) keeps the cadence
 * stable through downtime, failed checks and hour changes.
 */
export function isDueDay(rule: DayRule, dayNo: number, anchorDay: number): boolean {
  const frequency = rule.updateFrequency;
  switch (frequency) {
    case 'daily':
    case 'every3days':
    case 'weekly':
    case 'biweekly':
      return mod(dayNo - anchorDay, PERIOD_DAYS[frequency]) === 0;
    case 'custom':
      return rule.customUpdateDays.includes(weekdayOf(dayNo));
    default:
      return assertNever(frequency);
  }
}

/** The longest run of days without a due day, for bounding searches: biweekly's 14. */
export const LONGEST_GAP_DAYS = 14;
