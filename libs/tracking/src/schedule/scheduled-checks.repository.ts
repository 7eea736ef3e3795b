import { Inject, Injectable } from '@nestjs/common';
import {
  isSlotHandled,
  ScheduleCommand,
  scheduleDecider,
  ScheduleState,
  ScheduleStreamEvent,
  scheduleStreamName,
} from '../domain/scheduled-checks';
import { AggregateRepository } from '@rank/event-store/aggregate-repository';
import type { EventStore } from '@rank/event-store/event-store.port';
import { StateCache } from '@rank/event-store/state-cache';
import { EVENT_STORE, STATE_CACHE } from '@rank/platform/tokens';

/** Scheduled slots of each project (stream `schedule-<projectId>`). */
@Injectable()
export class ScheduledChecksRepository {
  private readonly repository: AggregateRepository<ScheduleCommand, ScheduleStreamEvent, ScheduleState>;

  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(STATE_CACHE) cache: StateCache,
  ) {
    this.repository = new AggregateRepository(store, scheduleDecider, cache);
  }

  /** Whether the slot's local day (in `timeZone`, the project's zone now) has been decided already, by any replica. */
  async isHandled(projectId: string, dueAt: Date, timeZone: string): Promise<boolean> {
    return isSlotHandled((await this.repository.load(scheduleStreamName(projectId))).state, dueAt, timeZone);
  }

  /**
   * Requests or skips a slot; true when this call is the one that decided it. Racing replicas append
   * with the same expected revision: one wins, the others re-read, see the slot and add nothing.
   */
  async decideSlot(command: ScheduleCommand, now: Date): Promise<boolean> {
    const { events } = await this.repository.handle(scheduleStreamName(command.projectId), command, { now: () => now });
    return events.length > 0;
  }

  async delete(projectId: string): Promise<void> {
    await this.store.deleteStream(scheduleStreamName(projectId));
    this.repository.forget(scheduleStreamName(projectId));
  }
}
