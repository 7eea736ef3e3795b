import { assertNever } from '@rank/domain/domain-error';
import { Decider } from '@rank/domain/decider';
import { eventTypes } from '@rank/domain/domain-event';
import { STREAM_CATEGORIES } from '@rank/domain/stream-categories';

/**
 * A project's scheduled checks (stream `schedule-<projectId>`): one decision per due slot, a local
 * day: requested (the scraper's work order) or skipped (the month's tokens did not cover it). Replicas
 * and restarts race to decide a slot; the expected revision lets exactly one win, and the slot key
 * makes every later attempt a change of nothing.
 */
export type ScheduledCheckRequested = {
  type: 'ScheduledCheckRequested';
  data: { projectId: string; accountId: string; slotKey: string; batchId: string; dueAt: string; requestedAt: string };
};

export type SkipReason = 'monthlyTokensExhausted';

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

export type ScheduleCommand =
  | { type: 'RequestSlot'; projectId: string; accountId: string; slotKey: string; batchId: string; dueAt: string }
  | {
      type: 'SkipSlot';
      projectId: string;
      accountId: string;
      slotKey: string;
      dueAt: string;
      reason: SkipReason;
      needed: number;
      available: number;
    };

/** Slots remembered: enough that a settings change cannot bring back a recent slot; old ones never recur. */
const REMEMBERED_SLOTS = 60;

export interface ScheduleState {
  /** Slots requested or skipped, oldest first. */
  recentSlotKeys: string[];
}

export const scheduleStreamName = STREAM_CATEGORIES.schedule;

/** Whether a slot has been decided (requested or skipped) already. */
export const isSlotHandled = (state: ScheduleState, slotKey: string) => state.recentSlotKeys.includes(slotKey);

export function decideSchedule(command: ScheduleCommand, state: ScheduleState, now: Date): ScheduleStreamEvent[] {
  if (isSlotHandled(state, command.slotKey)) return [];
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
      return { recentSlotKeys: [...state.recentSlotKeys, event.data.slotKey].slice(-REMEMBERED_SLOTS) };
    default:
      return assertNever(event);
  }
}

export const scheduleDecider: Decider<ScheduleCommand, ScheduleStreamEvent, ScheduleState> = {
  decide: decideSchedule,
  evolve: evolveSchedule,
  initialState: () => ({ recentSlotKeys: [] }),
  eventTypes: SCHEDULE_EVENT_TYPES,
};
