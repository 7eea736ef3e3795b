import { DomainError } from '@rank/domain/domain-error';
import { latestDueSlot, nextSlot, Schedule, ScheduleSlot } from './due-slot';
import { DAY_MS } from './local-day';
import { localDateTime } from './zoned-time';
import { evolveSchedule, isSlotHandled, type ScheduleState } from '../scheduled-checks';

const base: Schedule = {
  updateFrequency: 'daily',
  customUpdateDays: [],
  updateTime: 12,
  updateTimezone: 'UTC',
  createdAt: '2025-12-01T00:00:00.000Z',
};
const slot = (key: string, dueAt: string): ScheduleSlot => ({ key, dueAt: new Date(dueAt) });
const keyDiffDays = (a: string, b: string) => (Date.parse(b) - Date.parse(a)) / DAY_MS;

/**
 * given(settings).when(now).thenLatestIs(key, dueAt) / .thenNothingIsDue() / .thenNextIs(key, dueAt)
 * given(settings).whenListingFrom(now, n).thenSlotsAre([[key, dueAt], ...])
 */
function given(settings: Partial<Schedule>) {
  const schedule = { ...base, ...settings };
  return {
    when(now: string) {
      const at = new Date(now);
      const then = {
        thenLatestIs: (key: string, dueAt: string) => (expect(latestDueSlot(schedule, at)).toEqual(slot(key, dueAt)), then),
        thenNothingIsDue: () => (expect(latestDueSlot(schedule, at)).toBeNull(), then),
        thenNextIs: (key: string, dueAt: string) => (expect(nextSlot(schedule, at)).toEqual(slot(key, dueAt)), then),
      };
      return then;
    },
    whenListingFrom(now: string, count: number) {
      const slots: ScheduleSlot[] = [];
      let at = new Date(now);
      while (slots.length < count) {
        const next = nextSlot(schedule, at);
        slots.push(next);
        at = next.dueAt;
      }
      return {
        thenSlotsAre: (expected: Array<[string, string]>) => expect(slots).toEqual(expected.map(([key, dueAt]) => slot(key, dueAt))),
        thenKeysAre: (expected: string[]) => expect(slots.map((s) => s.key)).toEqual(expected),
      };
    },
  };
}

/**
 * The scheduler as the brief describes it: every `stepMinutes` it asks for the latest due slot and
 * requests it unless its key was requested before. `plan` says which settings apply from when.
 * Returns the requests made, as [key, dueAt, requestedAt].
 */
function runScheduler(plan: Array<[from: string, settings: Partial<Schedule>]>, until: string, stepMinutes = 1) {
  const requested = new Set<string>();
  const log: Array<[string, string, string]> = [];
  for (let t = Date.parse(plan[0][0]); t <= Date.parse(until); t += stepMinutes * 60_000) {
    const settings = plan.filter(([from]) => Date.parse(from) <= t).pop()![1];
    const due = latestDueSlot({ ...base, ...settings }, new Date(t));
    if (due && !requested.has(due.key)) {
      requested.add(due.key);
      log.push([due.key, due.dueAt.toISOString(), new Date(t).toISOString()]);
    }
  }
  return log;
}

/**
 * The scheduler as it runs: every minute it asks for the latest due slot and requests it unless the
 * schedule stream has decided that local day already (isSlotHandled, read from the due times
 * recorded). Returns the requests made, as [key, dueAt].
 */
function runRecordingScheduler(settings: Partial<Schedule>, from: string, until: string) {
  const schedule = { ...base, ...settings };
  let state: ScheduleState = { recentDueAts: [] };
  const log: Array<[string, string]> = [];
  for (let t = Date.parse(from); t <= Date.parse(until); t += 60_000) {
    const due = latestDueSlot(schedule, new Date(t));
    if (!due || isSlotHandled(state, due.dueAt, schedule.updateTimezone)) continue;
    log.push([due.key, due.dueAt.toISOString()]);
    const data = {
      projectId: 'p',
      accountId: 'a',
      slotKey: due.key,
      batchId: 'b',
      dueAt: due.dueAt.toISOString(),
      requestedAt: new Date(t).toISOString(),
    };
    state = evolveSchedule(state, { type: 'ScheduledCheckRequested', data });
  }
  return log;
}

describe('latestDueSlot and nextSlot', () => {
  describe('daily', () => {
    it('is due every day at updateTime, from the instant itself on', () => {
      given({})
        .when('2026-05-10T11:59:59.999Z')
        .thenLatestIs('2026-05-09', '2026-05-09T12:00:00.000Z')
        .thenNextIs('2026-05-10', '2026-05-10T12:00:00.000Z');
      given({})
        .when('2026-05-10T12:00:00.000Z')
        .thenLatestIs('2026-05-10', '2026-05-10T12:00:00.000Z')
        .thenNextIs('2026-05-11', '2026-05-11T12:00:00.000Z');
    });
    it('keeps the local hour through summer and winter time', () => {
      given({ updateTimezone: 'Europe/Berlin', updateTime: 9 })
        .when('2026-01-15T12:00:00Z')
        .thenLatestIs('2026-01-15', '2026-01-15T08:00:00.000Z');
      given({ updateTimezone: 'Europe/Berlin', updateTime: 9 })
        .when('2026-07-15T12:00:00Z')
        .thenLatestIs('2026-07-15', '2026-07-15T07:00:00.000Z');
    });
    it('keys a slot by the local day, not the UTC one', () => {
      given({ updateTimezone: 'America/New_York', updateTime: 23 })
        .when('2026-05-11T03:30:00Z') // 23:30 EDT on the 10th
        .thenLatestIs('2026-05-10', '2026-05-11T03:00:00.000Z');
    });
    it('reads an empty time zone as UTC', () => {
      given({ updateTimezone: '' }).when('2026-05-10T13:00:00Z').thenLatestIs('2026-05-10', '2026-05-10T12:00:00.000Z');
    });
  });

  describe('every3days, weekly, biweekly: counted from the creation day', () => {
    it('every3days: the creation day and every third day after it', () => {
      given({ updateFrequency: 'every3days', createdAt: '2026-01-01T08:00:00Z' })
        .whenListingFrom('2026-01-01T08:00:00Z', 4)
        .thenKeysAre(['2026-01-01', '2026-01-04', '2026-01-07', '2026-01-10']);
      given({ updateFrequency: 'every3days', createdAt: '2026-01-01T08:00:00Z' })
        .when('2026-01-06T00:00:00Z')
        .thenLatestIs('2026-01-04', '2026-01-04T12:00:00.000Z')
        .thenNextIs('2026-01-07', '2026-01-07T12:00:00.000Z');
    });
    it('weekly: the weekday of creation (a Wednesday), however long ago', () => {
      given({ updateFrequency: 'weekly', createdAt: '2026-01-07T08:00:00Z' })
        .whenListingFrom('2026-01-07T00:00:00Z', 3)
        .thenKeysAre(['2026-01-07', '2026-01-14', '2026-01-21']);
      given({ updateFrequency: 'weekly', createdAt: '2026-01-07T08:00:00Z' })
        .when('2026-12-27T00:00:00Z') // a Sunday
        .thenLatestIs('2026-12-23', '2026-12-23T12:00:00.000Z')
        .thenNextIs('2026-12-30', '2026-12-30T12:00:00.000Z');
    });
    it('biweekly: every other week from the creation day', () => {
      given({ updateFrequency: 'biweekly', createdAt: '2026-01-07T08:00:00Z' })
        .whenListingFrom('2026-01-07T00:00:00Z', 3)
        .thenKeysAre(['2026-01-07', '2026-01-21', '2026-02-04']);
      given({ updateFrequency: 'biweekly', createdAt: '2026-01-07T08:00:00Z' })
        .when('2026-02-03T23:00:00Z')
        .thenLatestIs('2026-01-21', '2026-01-21T12:00:00.000Z');
    });
    it("takes the creation day in the project's zone: 23:30 UTC on Jan 1 is already Jan 2 in Berlin", () => {
      const createdAt = '2026-01-01T23:30:00Z';
      given({ updateFrequency: 'every3days', createdAt, updateTimezone: 'Europe/Berlin' })
        .whenListingFrom(createdAt, 3)
        .thenKeysAre(['2026-01-02', '2026-01-05', '2026-01-08']);
      given({ updateFrequency: 'every3days', createdAt, updateTimezone: 'UTC' }) // Jan 1 12:00 predates creation
        .whenListingFrom(createdAt, 3)
        .thenKeysAre(['2026-01-04', '2026-01-07', '2026-01-10']);
    });
    it('keeps counting from the creation day in the zone of creation when the zone changes later', () => {
      // Created on Tuesday May 5 at 23:30 UTC (already Wednesday in Berlin), in UTC: due on Tuesdays
      const createdAt = '2026-05-05T23:30:00Z';
      given({ updateFrequency: 'weekly', createdAt, updateTimezone: 'Europe/Berlin', creationZone: 'UTC' })
        .when('2026-05-12T13:00:00Z')
        .thenLatestIs('2026-05-12', '2026-05-12T10:00:00.000Z')
        .thenNextIs('2026-05-19', '2026-05-19T10:00:00.000Z');
      // Without the zone of creation the creation day would be Berlin's Wednesday, and the cadence would move
      given({ updateFrequency: 'weekly', createdAt, updateTimezone: 'Europe/Berlin' })
        .when('2026-05-12T13:00:00Z')
        .thenLatestIs('2026-05-06', '2026-05-06T10:00:00.000Z');
    });
    it('counts calendar days, so a DST change does not move the cadence', () => {
      given({ updateFrequency: 'weekly', createdAt: '2026-03-25T06:00:00Z', updateTimezone: 'Europe/Berlin', updateTime: 9 })
        .whenListingFrom('2026-03-25T06:00:00Z', 2)
        .thenSlotsAre([
          ['2026-03-25', '2026-03-25T08:00:00.000Z'], // CET
          ['2026-04-01', '2026-04-01T07:00:00.000Z'], // CEST
        ]);
    });
  });

  describe('custom weekdays', () => {
    it('is due on the listed weekdays only (Mon, Wed, Fri)', () => {
      given({ updateFrequency: 'custom', customUpdateDays: [1, 3, 5] })
        .whenListingFrom('2026-05-10T00:00:00Z', 4) // a Sunday
        .thenKeysAre(['2026-05-11', '2026-05-13', '2026-05-15', '2026-05-18']);
      given({ updateFrequency: 'custom', customUpdateDays: [1, 3, 5] })
        .when('2026-05-10T00:00:00Z')
        .thenLatestIs('2026-05-08', '2026-05-08T12:00:00.000Z');
    });
    it('is due on Sunday (0) and Saturday (6)', () => {
      given({ updateFrequency: 'custom', customUpdateDays: [0, 6] })
        .whenListingFrom('2026-05-11T00:00:00Z', 3)
        .thenKeysAre(['2026-05-16', '2026-05-17', '2026-05-23']);
    });
    it('takes the weekday of the local day: Monday noon in Apia is Sunday in UTC', () => {
      given({ updateFrequency: 'custom', customUpdateDays: [1], updateTimezone: 'Pacific/Apia' })
        .when('2026-05-10T23:00:00Z')
        .thenLatestIs('2026-05-11', '2026-05-10T23:00:00.000Z');
    });
    it('has no slot without weekdays (the API refuses such settings)', () => {
      const none = { updateFrequency: 'custom' as const, customUpdateDays: [] };
      given(none).when('2026-05-10T00:00:00Z').thenNothingIsDue();
      expect(() => nextSlot({ ...base, ...none }, new Date('2026-05-10T00:00:00Z'))).toThrow(DomainError);
    });
  });

  describe('creation', () => {
    it('created at 15:00 with updateTime 12: nothing is due until noon the next day', () => {
      const project = given({ createdAt: '2026-05-10T15:00:00Z' });
      project.when('2026-05-10T15:00:00Z').thenNothingIsDue().thenNextIs('2026-05-11', '2026-05-11T12:00:00.000Z');
      project.when('2026-05-11T11:59:00Z').thenNothingIsDue();
      project.when('2026-05-11T12:00:00Z').thenLatestIs('2026-05-11', '2026-05-11T12:00:00.000Z');
    });
    it('created before updateTime: due the same day', () => {
      given({ createdAt: '2026-05-10T09:00:00Z' }).when('2026-05-10T12:00:00Z').thenLatestIs('2026-05-10', '2026-05-10T12:00:00.000Z');
    });
    it('created exactly at a slot: that slot is due', () => {
      given({ createdAt: '2026-05-10T12:00:00Z' }).when('2026-05-10T12:00:00Z').thenLatestIs('2026-05-10', '2026-05-10T12:00:00.000Z');
    });
    it('created after updateTime on its anchor day: a periodic project first checks one period later', () => {
      given({ updateFrequency: 'weekly', createdAt: '2026-05-13T15:00:00Z' })
        .when('2026-05-13T15:00:00Z')
        .thenNothingIsDue()
        .thenNextIs('2026-05-20', '2026-05-20T12:00:00.000Z');
    });
    it('asked before creation: the next slot is the first one after creation', () => {
      given({ createdAt: '2026-05-10T15:00:00Z' })
        .when('2026-05-01T00:00:00Z')
        .thenNothingIsDue()
        .thenNextIs('2026-05-11', '2026-05-11T12:00:00.000Z');
    });
    it("compares creation in the project's zone: 15:00 in Berlin is after 12:00 in Berlin", () => {
      given({ createdAt: '2026-05-10T13:00:00Z', updateTimezone: 'Europe/Berlin' })
        .when('2026-05-10T13:00:00Z')
        .thenNothingIsDue()
        .thenNextIs('2026-05-11', '2026-05-11T10:00:00.000Z');
    });
  });

  describe('daylight saving changes of 2026', () => {
    it("Berlin spring forward (03-29), updateTime 02 in the gap: that day's slot is at 03:00 CEST", () => {
      given({ updateTimezone: 'Europe/Berlin', updateTime: 2 })
        .whenListingFrom('2026-03-27T12:00:00Z', 3)
        .thenSlotsAre([
          ['2026-03-28', '2026-03-28T01:00:00.000Z'], // 02:00 CET
          ['2026-03-29', '2026-03-29T01:00:00.000Z'], // 03:00 CEST
          ['2026-03-30', '2026-03-30T00:00:00.000Z'], // 02:00 CEST
        ]);
      given({ updateTimezone: 'Europe/Berlin', updateTime: 2 })
        .when('2026-03-29T00:59:00Z')
        .thenLatestIs('2026-03-28', '2026-03-28T01:00:00.000Z');
    });
    it("New York spring forward (03-08), updateTime 02 in the gap: that day's slot is at 03:00 EDT", () => {
      given({ updateTimezone: 'America/New_York', updateTime: 2 })
        .whenListingFrom('2026-03-06T12:00:00Z', 3)
        .thenSlotsAre([
          ['2026-03-07', '2026-03-07T07:00:00.000Z'], // 02:00 EST
          ['2026-03-08', '2026-03-08T07:00:00.000Z'], // 03:00 EDT
          ['2026-03-09', '2026-03-09T06:00:00.000Z'], // 02:00 EDT
        ]);
    });
    it('Berlin fall back (10-25), updateTime 02 in the overlap: the first 02:00 (CEST), and not again at the second', () => {
      const berlin = given({ updateTimezone: 'Europe/Berlin', updateTime: 2 });
      berlin.whenListingFrom('2026-10-23T12:00:00Z', 3).thenSlotsAre([
        ['2026-10-24', '2026-10-24T00:00:00.000Z'], // 02:00 CEST
        ['2026-10-25', '2026-10-25T00:00:00.000Z'], // first 02:00, CEST
        ['2026-10-26', '2026-10-26T01:00:00.000Z'], // 02:00 CET
      ]);
      berlin.when('2026-10-25T01:00:00Z').thenLatestIs('2026-10-25', '2026-10-25T00:00:00.000Z'); // second 02:00, CET
    });
    it('New York fall back (11-01), updateTime 01 in the overlap: the first 01:00 (EDT), and not again at the second', () => {
      const newYork = given({ updateTimezone: 'America/New_York', updateTime: 1 });
      newYork.whenListingFrom('2026-10-30T12:00:00Z', 3).thenSlotsAre([
        ['2026-10-31', '2026-10-31T05:00:00.000Z'], // 01:00 EDT
        ['2026-11-01', '2026-11-01T05:00:00.000Z'], // first 01:00, EDT
        ['2026-11-02', '2026-11-02T06:00:00.000Z'], // 01:00 EST
      ]);
      newYork.when('2026-11-01T06:30:00Z').thenLatestIs('2026-11-01', '2026-11-01T05:00:00.000Z'); // second 01:30, EST
    });
    it('requests exactly one slot per day across both New York changes, minute by minute', () => {
      expect(
        runScheduler([['2026-03-07T00:00:00Z', { updateTimezone: 'America/New_York', updateTime: 2 }]], '2026-03-09T23:59:00Z'),
      ).toEqual([
        ['2026-03-06', '2026-03-06T07:00:00.000Z', '2026-03-07T00:00:00.000Z'],
        ['2026-03-07', '2026-03-07T07:00:00.000Z', '2026-03-07T07:00:00.000Z'],
        ['2026-03-08', '2026-03-08T07:00:00.000Z', '2026-03-08T07:00:00.000Z'],
        ['2026-03-09', '2026-03-09T06:00:00.000Z', '2026-03-09T06:00:00.000Z'],
      ]);
      expect(
        runScheduler([['2026-10-31T00:00:00Z', { updateTimezone: 'America/New_York', updateTime: 1 }]], '2026-11-02T23:59:00Z'),
      ).toEqual([
        ['2026-10-30', '2026-10-30T05:00:00.000Z', '2026-10-31T00:00:00.000Z'],
        ['2026-10-31', '2026-10-31T05:00:00.000Z', '2026-10-31T05:00:00.000Z'],
        ['2026-11-01', '2026-11-01T05:00:00.000Z', '2026-11-01T05:00:00.000Z'],
        ['2026-11-02', '2026-11-02T06:00:00.000Z', '2026-11-02T06:00:00.000Z'],
      ]);
    });
  });

  describe('a spring gap that ends the day (Greenland: 23:00 jumps to 00:00)', () => {
    const nuuk = { updateTimezone: 'America/Godthab', updateTime: 23, createdAt: '2026-03-25T03:00:00Z' };
    it("runs the Saturday's slot at the last second before the gap, on its own day", () => {
      // 2026-03-28 23:00 -02 does not exist: the clock goes from 22:59:59 -02 to 00:00:00 -01 (01:00 UTC).
      given(nuuk).when('2026-03-29T01:00:00Z').thenLatestIs('2026-03-28', '2026-03-29T00:59:59.000Z');
    });
    it('checks every day of the change once, minute by minute, as the scheduler decides them', () => {
      // Before, the Saturday's slot ran at Sunday 00:00, and Sunday's own slot then counted as decided:
      // 2026-03-29 was never requested, every year, in America/Nuuk and America/Scoresbysund.
      for (const updateTimezone of ['America/Godthab', 'America/Scoresbysund']) {
        expect(
          runRecordingScheduler({ ...nuuk, updateTimezone }, '2026-03-27T00:00:00Z', '2026-03-31T12:00:00Z').map(([key]) => key),
        ).toEqual(['2026-03-25', '2026-03-26', '2026-03-27', '2026-03-28', '2026-03-29', '2026-03-30']);
      }
    });
  });

  describe('offsets that are not whole hours', () => {
    it('Asia/Kolkata (+05:30): noon is 06:30 UTC', () => {
      given({ updateTimezone: 'Asia/Kolkata' }).when('2026-05-10T06:30:00Z').thenLatestIs('2026-05-10', '2026-05-10T06:30:00.000Z');
      given({ updateTimezone: 'Asia/Kolkata' }).when('2026-05-10T06:29:59Z').thenLatestIs('2026-05-09', '2026-05-09T06:30:00.000Z');
    });
    it('Asia/Kathmandu (+05:45): midnight is 18:15 UTC the day before', () => {
      given({ updateTimezone: 'Asia/Kathmandu', updateTime: 0 })
        .when('2026-05-09T18:15:00Z')
        .thenLatestIs('2026-05-10', '2026-05-09T18:15:00.000Z')
        .thenNextIs('2026-05-11', '2026-05-10T18:15:00.000Z');
    });
  });

  describe('around the date line', () => {
    it("Pacific/Apia (+13): a local day's slot falls on the UTC day before", () => {
      given({ updateTimezone: 'Pacific/Apia' })
        .when('2026-05-10T23:30:00Z')
        .thenLatestIs('2026-05-11', '2026-05-10T23:00:00.000Z')
        .thenNextIs('2026-05-12', '2026-05-11T23:00:00.000Z');
    });
    it('Pacific/Kiritimati (+14) and Pacific/Pago_Pago (-11), 25 hours apart, name different days at the same instant', () => {
      given({ updateTimezone: 'Pacific/Kiritimati' }).when('2026-05-10T23:00:00Z').thenLatestIs('2026-05-11', '2026-05-10T22:00:00.000Z');
      given({ updateTimezone: 'Pacific/Pago_Pago' }).when('2026-05-10T23:00:00Z').thenLatestIs('2026-05-10', '2026-05-10T23:00:00.000Z');
    });
    it("Apia skipped 2011-12-30 when it crossed the date line: that day's slot is the last second before the gap, and 2011-12-31 keeps its own", () => {
      given({ updateTimezone: 'Pacific/Apia', createdAt: '2011-12-01T00:00:00Z' })
        .whenListingFrom('2011-12-29T00:00:00Z', 3)
        .thenSlotsAre([
          ['2011-12-29', '2011-12-29T22:00:00.000Z'], // 12:00 at -10
          ['2011-12-30', '2011-12-30T09:59:59.000Z'], // did not exist: 2011-12-29 23:59:59 at -10, a day already decided
          ['2011-12-31', '2011-12-30T22:00:00.000Z'], // 12:00 at +14
        ]);
      expect(
        runRecordingScheduler(
          { updateTimezone: 'Pacific/Apia', createdAt: '2011-12-01T00:00:00Z' },
          '2011-12-29T00:00:00Z',
          '2011-12-31T12:00:00Z',
        ),
      ).toEqual([
        ['2011-12-28', '2011-12-28T22:00:00.000Z'],
        ['2011-12-29', '2011-12-29T22:00:00.000Z'],
        ['2011-12-31', '2011-12-30T22:00:00.000Z'],
      ]);
    });
  });

  describe('settings changes, with the scheduler requesting each key once', () => {
    const berlin = { updateTimezone: 'Europe/Berlin' };
    it("moving the hour later after today's check does not check today again", () => {
      expect(
        runScheduler(
          [
            ['2026-05-10T00:00:00Z', {}],
            ['2026-05-10T13:00:00Z', { updateTime: 14 }],
          ],
          '2026-05-11T23:59:00Z',
        ),
      ).toEqual([
        ['2026-05-09', '2026-05-09T12:00:00.000Z', '2026-05-10T00:00:00.000Z'],
        ['2026-05-10', '2026-05-10T12:00:00.000Z', '2026-05-10T12:00:00.000Z'],
        ['2026-05-11', '2026-05-11T14:00:00.000Z', '2026-05-11T14:00:00.000Z'],
      ]);
    });
    it('moving the hour earlier past now does not skip today: it is checked at once', () => {
      expect(
        runScheduler(
          [
            ['2026-05-10T00:00:00Z', {}],
            ['2026-05-10T10:00:00Z', { updateTime: 9 }],
          ],
          '2026-05-10T23:59:00Z',
        ),
      ).toEqual([
        ['2026-05-09', '2026-05-09T12:00:00.000Z', '2026-05-10T00:00:00.000Z'],
        ['2026-05-10', '2026-05-10T09:00:00.000Z', '2026-05-10T10:00:00.000Z'],
      ]);
    });
    it("moving the zone west after today's check (Berlin → New York) does not check today again", () => {
      expect(
        runScheduler(
          [
            ['2026-05-10T00:00:00Z', berlin],
            ['2026-05-10T11:00:00Z', { updateTimezone: 'America/New_York' }],
          ],
          '2026-05-11T23:59:00Z',
        ),
      ).toEqual([
        ['2026-05-09', '2026-05-09T10:00:00.000Z', '2026-05-10T00:00:00.000Z'],
        ['2026-05-10', '2026-05-10T10:00:00.000Z', '2026-05-10T10:00:00.000Z'],
        ['2026-05-11', '2026-05-11T16:00:00.000Z', '2026-05-11T16:00:00.000Z'],
      ]);
    });
    it("moving the zone west before today's slot (Berlin → New York) keeps today's slot, at the new time", () => {
      expect(
        runScheduler(
          [
            ['2026-05-10T00:00:00Z', berlin],
            ['2026-05-10T09:00:00Z', { updateTimezone: 'America/New_York' }],
          ],
          '2026-05-10T23:59:00Z',
        ),
      ).toEqual([
        ['2026-05-09', '2026-05-09T10:00:00.000Z', '2026-05-10T00:00:00.000Z'],
        ['2026-05-10', '2026-05-10T16:00:00.000Z', '2026-05-10T16:00:00.000Z'],
      ]);
    });
    it("moving the zone east after today's check (New York → Berlin, where it is already evening) does not check today again", () => {
      expect(
        runScheduler(
          [
            ['2026-05-10T00:00:00Z', { updateTimezone: 'America/New_York' }],
            ['2026-05-10T20:00:00Z', berlin],
          ],
          '2026-05-11T23:59:00Z',
        ),
      ).toEqual([
        ['2026-05-09', '2026-05-09T16:00:00.000Z', '2026-05-10T00:00:00.000Z'],
        ['2026-05-10', '2026-05-10T16:00:00.000Z', '2026-05-10T16:00:00.000Z'],
        ['2026-05-11', '2026-05-11T10:00:00.000Z', '2026-05-11T10:00:00.000Z'],
      ]);
    });
    it('switching weekly to daily before noon checks today at noon (yesterday, the weekly day, was checked already)', () => {
      const weekly = { updateFrequency: 'weekly' as const, createdAt: '2026-05-06T00:00:00Z' }; // Wednesdays
      expect(
        runScheduler(
          [
            ['2026-05-13T00:00:00Z', weekly],
            ['2026-05-14T10:00:00Z', { createdAt: weekly.createdAt }],
          ],
          '2026-05-14T23:59:00Z',
        ),
      ).toEqual([
        ['2026-05-06', '2026-05-06T12:00:00.000Z', '2026-05-13T00:00:00.000Z'],
        ['2026-05-13', '2026-05-13T12:00:00.000Z', '2026-05-13T12:00:00.000Z'],
        ['2026-05-14', '2026-05-14T12:00:00.000Z', '2026-05-14T12:00:00.000Z'],
      ]);
    });
    it('after three days of downtime only the latest missed slot is requested, not the backlog', () => {
      const log = runScheduler([['2026-05-10T12:00:00Z', {}]], '2026-05-10T12:00:00Z');
      expect(log).toEqual([['2026-05-10', '2026-05-10T12:00:00.000Z', '2026-05-10T12:00:00.000Z']]);
      given({}).when('2026-05-13T18:00:00Z').thenLatestIs('2026-05-13', '2026-05-13T12:00:00.000Z');
    });
  });

  describe('over a whole year', () => {
    it('a daily Berlin project at 02:00, sampled every 17 minutes through 2026: one slot per local day, at 02:00 except on the gap day', () => {
      const schedule: Schedule = { ...base, updateTimezone: 'Europe/Berlin', updateTime: 2 };
      const dueAtByKey = new Map<string, Set<number>>();
      let samplesBeforeTheirSlot = 0; // counted, not expected one by one: 31 000 expects cost seconds
      for (let t = Date.parse('2026-01-01T00:00:00Z'); t < Date.parse('2027-01-01T00:00:00Z'); t += 17 * 60_000) {
        const latest = latestDueSlot(schedule, new Date(t))!;
        if (latest.dueAt.getTime() > t) samplesBeforeTheirSlot++;
        if (!dueAtByKey.has(latest.key)) dueAtByKey.set(latest.key, new Set());
        dueAtByKey.get(latest.key)!.add(latest.dueAt.getTime());
      }
      expect(samplesBeforeTheirSlot).toBe(0);
      const keys = [...dueAtByKey.keys()];
      // 2025-12-31 (still latest at New Year 00:00 UTC, 01:00 in Berlin) through 2026-12-31: no day missing, none twice.
      expect(keys).toHaveLength(366);
      expect(keys[0]).toBe('2025-12-31');
      expect(keys[keys.length - 1]).toBe('2026-12-31');
      keys.slice(1).forEach((key, i) => expect(keyDiffDays(keys[i], key)).toBe(1));
      for (const [key, dueAts] of dueAtByKey) {
        expect(dueAts.size).toBe(1);
        const local = localDateTime([...dueAts][0], 'Europe/Berlin');
        expect([
          `${local.year}-${String(local.month).padStart(2, '0')}-${String(local.day).padStart(2, '0')}`,
          local.hour,
          local.minute,
        ]).toEqual([key, key === '2026-03-29' ? 3 : 2, 0]);
      }
    });

    it.each([
      ['every3days', [], 3, 'Europe/Berlin', 2],
      ['weekly', [], 7, 'America/New_York', 1],
      ['biweekly', [], 14, 'Asia/Kathmandu', 0],
      ['custom', [0, 3], undefined, 'Pacific/Apia', 23],
      ['daily', [], 1, 'Asia/Kolkata', 12],
    ] as const)(
      '%s in %s: latestDueSlot and nextSlot agree on every slot of 2026',
      (updateFrequency, customUpdateDays, period, updateTimezone, updateTime) => {
        const schedule: Schedule = {
          updateFrequency,
          customUpdateDays: [...customUpdateDays],
          updateTimezone,
          updateTime,
          createdAt: '2025-12-30T17:00:00Z',
        };
        let previous = nextSlot(schedule, new Date(schedule.createdAt));
        expect(latestDueSlot(schedule, new Date(previous.dueAt.getTime() - 1))).toBeNull();
        while (previous.dueAt.getTime() < Date.parse('2027-01-01T00:00:00Z')) {
          const next = nextSlot(schedule, previous.dueAt);
          if (period !== undefined) expect(keyDiffDays(previous.key, next.key)).toBe(period);
          else expect(customUpdateDays).toContain(new Date(next.key).getUTCDay());
          // Just before a slot the previous one is the latest; at the slot itself, the slot is.
          expect(latestDueSlot(schedule, new Date(next.dueAt.getTime() - 1))).toEqual(previous);
          expect(latestDueSlot(schedule, next.dueAt)).toEqual(next);
          expect(nextSlot(schedule, new Date(next.dueAt.getTime() - 1))).toEqual(next);
          previous = next;
        }
      },
    );
  });
});
