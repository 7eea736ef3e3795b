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
  timeZone: 'UTC',
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
  timeZone: 'UTC',
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
  it("after a time-zone change, takes a day as decided when a slot fell due on it by the new zone's clock, not by its key", () => {
    const berlinMay10: ScheduleStreamEvent = {
      type: 'ScheduledCheckRequested',
      // Berlin's May 10 at 01:00 is still May 9 in New York
      data: {
        projectId: 'p',
        accountId: 'a',
        slotKey: '2026-05-10',
        batchId: 'b1',
        dueAt: '2026-05-09T23:00:00.000Z',
        requestedAt: now.toISOString(),
      },
    };
    const newYork = (slotKey: string, dueAt: string): ScheduleCommand => ({
      type: 'RequestSlot',
      projectId: 'p',
      accountId: 'a',
      slotKey,
      batchId: 'b2',
      dueAt,
      timeZone: 'America/New_York',
    });
    // Given Berlin's May 10 checked, when the project now in New York is due on its May 10, then that day is checked too
    spec
      .given([berlinMay10])
      .when(newYork('2026-05-10', '2026-05-10T05:00:00.000Z'))
      .then([
        {
          type: 'ScheduledCheckRequested',
          data: {
            projectId: 'p',
            accountId: 'a',
            slotKey: '2026-05-10',
            batchId: 'b2',
            dueAt: '2026-05-10T05:00:00.000Z',
            requestedAt: now.toISOString(),
          },
        },
      ]);
    // and New York's May 9, on which the Berlin check fell, is not checked again
    spec.given([berlinMay10]).when(newYork('2026-05-09', '2026-05-09T05:00:00.000Z')).then([]);
    // Given New York's May 10 checked at 20:00 there (May 11, 02:00 in Berlin), when the project moves to Berlin, its May 11 is taken
    const newYorkMay10: ScheduleStreamEvent = {
      type: 'ScheduledCheckRequested',
      data: {
        projectId: 'p',
        accountId: 'a',
        slotKey: '2026-05-10',
        batchId: 'b3',
        dueAt: '2026-05-11T00:00:00.000Z',
        requestedAt: now.toISOString(),
      },
    };
    spec
      .given([newYorkMay10])
      .when({ ...request('2026-05-11'), dueAt: '2026-05-11T18:00:00.000Z', timeZone: 'Europe/Berlin' })
      .then([]);
  });
  it('requests the slot after a skipped one', () => {
    spec
      .given([skipped('2026-05-01')])
      .when(request('2026-05-02'))
      .then([requested('2026-05-02')]);
  });
});
