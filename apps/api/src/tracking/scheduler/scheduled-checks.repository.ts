import { Inject, Injectable } from '@nestjs/common';
import { ScheduleCommand, scheduleDecider, ScheduleEvent, ScheduleState, scheduleStreamName } from '../../../../../libs/domain/src/tracking/scheduled-checks';
import { AggregateRepository } from '../../../../../libs/event-store/src/aggregate-repository';
import type { EventStore } from '../../../../../libs/event-store/src/event-store.port';
import { EVENT_STORE } from '../../platform/tokens';

/** Scheduled slots of each project (stream `schedule-<projectId>`). */
@Injectable()
export class ScheduledChecksRepository {
  private readonly repository: AggregateRepository<ScheduleCommand, ScheduleEvent, ScheduleState>;

  constructor(@Inject(EVENT_STORE) private readonly store: EventStore) {
    this.repository = new AggregateRepository(store, scheduleDecider);
  }

  /**
   * Requests a slot; true when this call is the one that requested it. Racing replicas append with
   * the same expected revision: one wins, the others re-read, see the slot and add nothing.
   */
  async requestSlot(command: ScheduleCommand, now: Date): Promise<boolean> {
    const { events } = await this.repository.handle(scheduleStreamName(command.projectId), command, { now: () => now });
    return events.length > 0;
  }

  async delete(projectId: string): Promise<void> {
    await this.store.deleteStream(scheduleStreamName(projectId));
    this.repository.forget(scheduleStreamName(projectId));
  }
}
