import { calendarDate, dayKey, dayNumber, mod, weekdayOf } from './local-day';

describe('local days as numbers', () => {
  it('given 1970-01-01, when numbered, then it is day 0, a Thursday', () => {
    expect(dayNumber({ year: 1970, month: 1, day: 1 })).toBe(0);
    expect(weekdayOf(0)).toBe(4);
  });
  it('given 2026 dates, when numbered, then weekdays and keys come out right', () => {
    const sunday = dayNumber({ year: 2026, month: 3, day: 29 });
    expect(weekdayOf(sunday)).toBe(0);
    expect(weekdayOf(sunday + 6)).toBe(6);
    expect(dayKey(sunday)).toBe('2026-03-29');
  });
  it('given any day, when turned into a calendar date and back, then it is the same day (leap days included)', () => {
    for (let n = dayNumber({ year: 2023, month: 12, day: 1 }); n < dayNumber({ year: 2025, month: 1, day: 1 }); n++) {
      expect(dayNumber(calendarDate(n))).toBe(n);
    }
    expect(dayKey(dayNumber({ year: 2024, month: 2, day: 29 }) + 1)).toBe('2024-03-01');
  });
  it('given a negative number, when taken modulo, then the result is not negative', () => {
    expect(mod(-1, 3)).toBe(2);
    expect(mod(-3, 3)).toBe(0);
    expect(weekdayOf(-1)).toBe(3);
  });
});
