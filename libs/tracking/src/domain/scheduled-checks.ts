import { assertNever } from '@rank/domain/domain-error';
import { Decider } from '@rank/domain/decider';
import { eventTypes } from '@rank/domain/domain-event';
import { STREAM_CATEGORIES } from '@rank/domain/stream-categories';
import { localDayKey } from './schedule/due-slot';

/**
 * A project's scheduled checks (stream `schedule-<projectId>`): one decision per due slot, a local
 * day: requested (the scraper's work order) or skipped (the month's tokens did not cover it, or the
 * account is blocked). Replicas
 * and restarts race to decide a slot; the expected revision lets exactly one win, and every later
 * attempt at a day already decided is a change of nothing. Which local day a decided slot took is
 * read from its due instant on the project's clock as it is now, not from its key: after a time-zone
 * change the keys name the old zone's days, and would let a day go unchecked or be checked twice.
 */
export type ScheduledCheckRequested = {
  type: 'ScheduledCheckRequested';
  data: { projectId: string; accountId: string; slotKey: string; batchId: string; dueAt: string; requestedAt: string };
};

/**
 * Why a slot is skipped: the month's tokens did not cover it, or the operator blocked the account
 * (it may not even read; its checks would spend proxies and Google's patience on nobody). For
 * `accountBlocked`, `needed` and `available` are 0: no tokens were asked for.
 */
export type SkipReason = 'monthlyTokensExhausted' | 'accountBlocked';

/** A slot that will not run: recorded, so it is neither lost silently nor tried again every minute. */
export type ScheduledCheckSkipped = {
  type: 'ScheduledCheckSkipped';
  data: {
    projectId: string;
    accountId: string;
    slotKey: string;
    dueAt: string;
    reason: SkipReason;
    needed: number;
    available: number;
    skippedAt: string;
  };
};

/** Everything a schedule stream holds. */
export type ScheduleStreamEvent = ScheduledCheckRequested | ScheduledCheckSkipped;

export const SCHEDULE_EVENT_TYPES = eventTypes<ScheduleStreamEvent>()(['ScheduledCheckRequested', 'ScheduledCheckSkipped']);

/** `timeZone`: the project's zone now, whose local days decide whether a slot's day is taken. */
export type ScheduleCommand =
  | { type: 'RequestSlot'; projectId: string; accountId: string; slotKey: string; batchId: string; dueAt: string; timeZone: string }
  | {
      type: 'SkipSlot';
      projectId: string;
      accountId: string;
      slotKey: string;
      dueAt: string;
      timeZone: string;
      reason: SkipReason;
      needed: number;
      available: number;
    };

/** Slots remembered: enough that a settings change cannot bring back a recent slot; old ones never recur. */
const REMEMBERED_SLOTS = 60;

export interface ScheduleState {
  /** When the slots requested or skipped fell due (epoch ms), oldest first. */
  recentDueAts: number[];
}

export const scheduleStreamName = STREAM_CATEGORIES.schedule;

/**
 * Whether the local day of a slot due at `dueAt` has been decided (requested or skipped) already:
 * whether a decided slot fell due on that day of the project's clock in `timeZone`.
 */
export function isSlotHandled(state: ScheduleState, dueAt: Date | string, timeZone: string): boolean {
  const day = localDayKey(new Date(dueAt), timeZone);
  // Newest first: the scheduler asks every minute, and the day it asks about is most often the last decided.
  for (let i = state.recentDueAts.length - 1; i >= 0; i--) if (localDayKey(state.recentDueAts[i]!, timeZone) === day) return true;
  return false;
}

export function decideSchedule(command: ScheduleCommand, state: ScheduleState, now: Date): ScheduleStreamEvent[] {
  if (isSlotHandled(state, command.dueAt, command.timeZone)) return [];
  switch (command.type) {
    case 'RequestSlot': {
      const { projectId, accountId, slotKey, batchId, dueAt } = command;
      return [{ type: 'ScheduledCheckRequested', data: { projectId, accountId, slotKey, batchId, dueAt, requestedAt: now.toISOString() } }];
    }
    case 'SkipSlot': {
      const { projectId, accountId, slotKey, dueAt, reason, needed, available } = command;
      return [
        {
          type: 'ScheduledCheckSkipped',
          data: { projectId, accountId, slotKey, dueAt, reason, needed, available, skippedAt: now.toISOString() },
        },
      ];
    }
    default:
      return assertNever(command);
  }
}

export function evolveSchedule(state: ScheduleState, event: ScheduleStreamEvent): ScheduleState {
  switch (event.type) {
    case 'ScheduledCheckRequested':
    case 'ScheduledCheckSkipped':
      return { recentDueAts: [...state.recentDueAts, Date.parse(event.data.dueAt)].slice(-REMEMBERED_SLOTS) };
    default:
      return assertNever(event);
  }
}

export const scheduleDecider: Decider<ScheduleCommand, ScheduleStreamEvent, ScheduleState> = {
  decide: decideSchedule,
  evolve: evolveSchedule,
  initialState: () => ({ recentDueAts: [] }),
  eventTypes: SCHEDULE_EVENT_TYPES,
};
