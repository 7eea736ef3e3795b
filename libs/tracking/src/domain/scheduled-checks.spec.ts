import { deciderSpec } from '@rank/domain/testing/decider-spec';
import { ScheduleCommand, scheduleDecider, ScheduleStreamEvent } from './scheduled-checks';

const now = new Date('2026-05-01T12:00:30.000Z');
const spec = deciderSpec(scheduleDecider, now);
const request = (slotKey: string, batchId = `b-${slotKey}`): ScheduleCommand => ({
  type: 'RequestSlot',
  projectId: 'p',
  accountId: 'a',
  slotKey,
  batchId,
  dueAt: `${slotKey}T12:00:00.000Z`,
});
const requested = (slotKey: string): ScheduleStreamEvent => ({
  type: 'ScheduledCheckRequested',
  data: {
    projectId: 'p',
    accountId: 'a',
    slotKey,
    batchId: `b-${slotKey}`,
    dueAt: `${slotKey}T12:00:00.000Z`,
    requestedAt: now.toISOString(),
  },
});
const skip = (slotKey: string): ScheduleCommand => ({
  type: 'SkipSlot',
  projectId: 'p',
  accountId: 'a',
  slotKey,
  dueAt: `${slotKey}T12:00:00.000Z`,
  reason: 'monthlyTokensExhausted',
  needed: 5,
  available: 2,
});
const skipped = (slotKey: string): ScheduleStreamEvent => ({
  type: 'ScheduledCheckSkipped',
  data: {
    projectId: 'p',
    accountId: 'a',
    slotKey,
    dueAt: `${slotKey}T12:00:00.000Z`,
    reason: 'monthlyTokensExhausted',
    needed: 5,
    available: 2,
    skippedAt: now.toISOString(),
  },
});

describe('Scheduled checks', () => {
  it('requests a due slot once', () => {
    spec
      .given([])
      .when(request('2026-05-01'))
      .then([requested('2026-05-01')]);
  });
  it('does nothing for a slot already requested, whoever asks again', () => {
    spec
      .given([requested('2026-05-01')])
      .when(request('2026-05-01', 'another-batch'))
      .then([]);
  });
  it("requests the next day's slot", () => {
    spec
      .given([requested('2026-04-30')])
      .when(request('2026-05-01'))
      .then([requested('2026-05-01')]);
  });
  it("records a slot the month's tokens do not cover as skipped, with the reason and the figures", () => {
    spec
      .given([requested('2026-04-30')])
      .when(skip('2026-05-01'))
      .then([skipped('2026-05-01')]);
  });
  it('never requests a skipped slot afterwards', () => {
    spec
      .given([skipped('2026-05-01')])
      .when(request('2026-05-01'))
      .then([]);
  });
  it('does not skip a slot already requested (a replica that saw more tokens won), nor skip twice', () => {
    spec
      .given([requested('2026-05-01')])
      .when(skip('2026-05-01'))
      .then([]);
    spec
      .given([skipped('2026-05-01')])
      .when(skip('2026-05-01'))
      .then([]);
  });
  it('requests the slot after a skipped one', () => {
    spec
      .given([skipped('2026-05-01')])
      .when(request('2026-05-02'))
      .then([requested('2026-05-02')]);
  });
});
