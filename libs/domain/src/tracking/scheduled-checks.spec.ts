import { deciderSpec } from '../testing/decider-spec';
import { scheduleDecider, ScheduleEvent } from './scheduled-checks';

const now = new Date('2026-05-01T12:00:30.000Z');
const spec = deciderSpec(scheduleDecider, now);
const request = (slotKey: string, batchId = `b-${slotKey}`) => ({ type: 'RequestSlot' as const, projectId: 'p', accountId: 'a', slotKey, batchId, dueAt: `${slotKey}T12:00:00.000Z` });
const requested = (slotKey: string): ScheduleEvent => ({
  type: 'ScheduledCheckRequested', data: { projectId: 'p', accountId: 'a', slotKey, batchId: `b-${slotKey}`, dueAt: `${slotKey}T12:00:00.000Z`, requestedAt: now.toISOString() },
});

describe('Scheduled checks', () => {
  it('requests a due slot once', () => {
    spec.given([]).when(request('2026-05-01')).then([requested('2026-05-01')]);
  });
  it('does nothing for a slot already requested, whoever asks again', () => {
    spec.given([requested('2026-05-01')]).when(request('2026-05-01', 'another-batch')).then([]);
  });
  it('requests the next day\'s slot', () => {
    spec.given([requested('2026-04-30')]).when(request('2026-05-01')).then([requested('2026-05-01')]);
  });
});
