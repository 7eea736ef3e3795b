import { describeProgress, formatDuration } from './rebuild-progress';

describe('rebuild progress', () => {
  it('shows the share of the log by position, the rate and the time left at that rate', () => {
    expect(describeProgress({ position: 250, lastPosition: 1_000, events: 20_000, elapsedMs: 10_000 }, 10)).toBe(
      '[###.......] 25% 20,000 events, 2,000 events/s, about 30 s left',
    );
  });

  it('says done at the end, and does not guess a time before anything is written', () => {
    expect(describeProgress({ position: 1_000, lastPosition: 1_000, events: 5, elapsedMs: 1 }, 4)).toBe(
      '[####] 100% 5 events, 5,000 events/s, done',
    );
    expect(describeProgress({ position: 0, lastPosition: 1_000, events: 0, elapsedMs: 0 }, 4)).toBe(
      '[....] 0% 0 events, 0 events/s, time left unknown',
    );
    expect(describeProgress({ position: 0, lastPosition: 0, events: 0, elapsedMs: 5 }, 4)).toBe('[####] 100% 0 events, 0 events/s, done');
  });

  it('writes durations a reader takes in at a glance', () => {
    expect(formatDuration(4_400)).toBe('4 s');
    expect(formatDuration(125_000)).toBe('2 min 5 s');
    expect(formatDuration(2 * 3_600_000 + 60_000)).toBe('2 h 1 min');
  });
});
