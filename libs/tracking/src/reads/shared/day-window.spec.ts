import { DomainError } from '@rank/domain/domain-error';
import { addDays, mondayOf, resolveDayWindow } from './day-window';

describe('ranking read windows', () => {
  it('finds the ISO week start (Monday) of any day, Sundays included', () => {
    expect(mondayOf('2026-03-16')).toBe('2026-03-16'); // a Monday
    expect(mondayOf('2026-03-20')).toBe('2026-03-16'); // Friday
    expect(mondayOf('2026-03-22')).toBe('2026-03-16'); // Sunday ends the week
    expect(mondayOf('2026-01-01')).toBe('2025-12-29'); // across a year
  });

  it('counts days across month ends and leap days', () => {
    expect(addDays('2028-02-28', 1)).toBe('2028-02-29');
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
  });

  it('defaults to the 30 days before today, both ends whole UTC days', () => {
    const window = resolveDayWindow({}, new Date('2026-03-20T23:59:59.999Z'));
    expect(window).toEqual({
      startDate: '2026-02-18',
      endDate: '2026-03-20',
      from: new Date('2026-02-18T00:00:00.000Z'),
      to: new Date('2026-03-21T00:00:00.000Z'),
    });
  });

  it('counts the default start back from a given endDate, and refuses a start after the end', () => {
    expect(resolveDayWindow({ endDate: '2026-01-31' }, new Date('2026-03-20T12:00:00Z')).startDate).toBe('2026-01-01');
    expect(() => resolveDayWindow({ startDate: '2026-03-21' }, new Date('2026-03-20T12:00:00Z'))).toThrow(DomainError);
  });
});
