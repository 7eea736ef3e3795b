import { assertNever } from '../shared/domain-error';
import { Decider } from '../shared/decider';

/**
 * A project's scheduled checks (stream `schedule-<projectId>`): one request per due slot, a local
 * day. Replicas and restarts race to request a slot; the expected revision lets exactly one win, and
 * the slot key makes every later attempt a change of nothing.
 */
export type ScheduleEvent = {
  type: 'ScheduledCheckRequested';
  data: { projectId: string; accountId: string; slotKey: string; batchId: string; dueAt: string; requestedAt: string };
};

export type ScheduleCommand = { type: 'RequestSlot'; projectId: string; accountId: string; slotKey: string; batchId: string; dueAt: string };

/** Slots remembered: enough that a settings change cannot bring back a recent slot; old ones never recur. */
const REMEMBERED_SLOTS = 60;

export interface ScheduleState {
  recentSlotKeys: string[];
}

export const scheduleStreamName = (projectId: string) => `schedule-${projectId}`;

export function decideSchedule(command: ScheduleCommand, state: ScheduleState, now: Date): ScheduleEvent[] {
  switch (command.type) {
    case 'RequestSlot': {
      if (state.recentSlotKeys.includes(command.slotKey)) return [];
      const { projectId, accountId, slotKey, batchId, dueAt } = command;
      return [{ type: 'ScheduledCheckRequested', data: { projectId, accountId, slotKey, batchId, dueAt, requestedAt: now.toISOString() } }];
    }
    default:
      return assertNever(command.type);
  }
}

export function evolveSchedule(state: ScheduleState, event: ScheduleEvent): ScheduleState {
  switch (event.type) {
    case 'ScheduledCheckRequested':
      return { recentSlotKeys: [...state.recentSlotKeys, event.data.slotKey].slice(-REMEMBERED_SLOTS) };
    default:
      return assertNever(event.type);
  }
}

export const scheduleDecider: Decider<ScheduleCommand, ScheduleEvent, ScheduleState> = {
  decide: decideSchedule,
  evolve: evolveSchedule,
  initialState: () => ({ recentSlotKeys: [] }),
};
