import { reportedFigures, twelveMonthTrend, twelveMonthWindow } from './twelve-months';

/** `[year, month, value]` triples as a provider's history. */
const history = (...months: [number, number, number][]) => months.map(([year, month, value]) => ({ year, month, value }));

describe('twelve months of volumes', () => {
  it('keeps the last 12 of a longer history, oldest first, across a year end', () => {
    const long = history(
      ...Array.from({ length: 14 }, (_, i): [number, number, number] => [2024 + Math.floor((i + 5) / 12), ((i + 5) % 12) + 1, i]),
    );
    expect(twelveMonthTrend(long)).toEqual([2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13]);
    expect(twelveMonthWindow(long).map((m) => `${m.year}-${m.month}`)).toEqual([
      '2024-8',
      '2024-9',
      '2024-10',
      '2024-11',
      '2024-12',
      '2025-1',
      '2025-2',
      '2025-3',
      '2025-4',
      '2025-5',
      '2025-6',
      '2025-7',
    ]);
  });

  it('keeps a month the provider skipped in its own place, as 0 in the trend: the months after it do not move', () => {
    // Before, a skipped December moved every month before it one place earlier and put a 0 in front.
    const skipped = history(
      [2024, 6, 1480],
      [2024, 7, 1470],
      [2024, 8, 1460],
      [2024, 9, 1450],
      [2024, 10, 1440],
      [2024, 11, 1430],
      [2025, 1, 1420],
      [2025, 2, 1400],
      [2025, 3, 1390],
      [2025, 4, 1380],
      [2025, 5, 1370],
    );
    expect(twelveMonthTrend(skipped)).toEqual([1480, 1470, 1460, 1450, 1440, 1430, 0, 1420, 1400, 1390, 1380, 1370]);
    expect(twelveMonthWindow(skipped)[6]).toEqual({ year: 2024, month: 12, value: null });
    expect(reportedFigures(skipped)).toHaveLength(11);
  });

  it('starts a short history with empty months, and has none for no history', () => {
    expect(twelveMonthTrend(history([2025, 3, 5], [2025, 4, 6], [2025, 5, 7]))).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 0, 5, 6, 7]);
    expect(twelveMonthTrend([])).toEqual(Array(12).fill(0));
    expect(twelveMonthWindow([])).toEqual([]);
  });

  it('reads a history in any order', () => {
    expect(twelveMonthTrend(history([2025, 5, 7], [2025, 3, 5], [2025, 4, 6]))).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 0, 5, 6, 7]);
  });
});
