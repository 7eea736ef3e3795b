import { Inject, Injectable } from '@nestjs/common';
import { uuidFromName } from '../../../../../libs/domain/src/shared/deterministic-uuid';
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

  /** Requests a slot; the slot's own event id makes a repeat a no-op even without the expected revision. */
  async requestSlot(command: ScheduleCommand, now: Date): Promise<boolean> {
    const { events } = await this.repository.handle(scheduleStreamName(command.projectId), command, {
      now: () => now,
      eventIds: (list) => list.map(() => uuidFromName(`slot:${command.projectId}:${command.slotKey}`)),
    });
    return events.length > 0;
  }

  async delete(projectId: string): Promise<void> {
    await this.store.deleteStream(scheduleStreamName(projectId));
    this.repository.forget(scheduleStreamName(projectId));
  }
}
