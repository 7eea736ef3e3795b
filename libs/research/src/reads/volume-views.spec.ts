import type { StoredVolume } from '../volumes.reader';
import { averageMonthlySearches } from '../domain/twelve-months';
import { compactVolume } from './volume-views';

const months = (values: number[]) =>
  values.map((value, i) => ({ year: 2025 + Math.floor((i + 2) / 12), month: ((i + 2) % 12) + 1, value }));
const stored = (over: Partial<StoredVolume>): StoredVolume => ({
  geoCode: 'US',
  langCode: 'en',
  keyword: 'running shoes',
  source: 'dataforseo',
  avgMonthlySearches: 1000,
  competition: 'HIGH',
  competitionIndex: 80,
  cpcLow: 0.4,
  cpcHigh: 1.9,
  currency: 'USD',
  history: [],
  fetchedAt: '2026-03-01T00:00:00.000Z',
  ...over,
});

describe('volume views', () => {
  it('compacts a record: the latest month, the last 12 months oldest first and their average', () => {
    const history = months([5, 100, 200, 300, 400, 500, 600, 700, 800, 900, 1000, 1100, 1200]);
    expect(compactVolume(stored({ history }))).toEqual({
      v: 'running shoes',
      g: 'US',
      l: 'en',
      s: 'dataforseo',
      lv: 1200,
      tr: [100, 200, 300, 400, 500, 600, 700, 800, 900, 1000, 1100, 1200],
      am: 650,
      ci: 80,
      cl: 0.4,
      ch: 1.9,
    });
  });

  it("falls back to the provider's average when no months were given", () => {
    expect(compactVolume(stored({ history: [] }))).toMatchObject({ lv: null, tr: Array(12).fill(0), am: 1000 });
  });

  it("keeps `tr` at the spec's 12 numbers, a skipped month as 0 in its own place, and averages only the months given", () => {
    // Before, a provider's skipped month shortened `tr` to 11 numbers, each month after it a place off.
    const history = months([100, 200, 300, 400, 500, 600, 700, 800, 900, 1000, 1100, 1200]).filter((m) => m.value !== 700);
    expect(compactVolume(stored({ history }))).toMatchObject({
      lv: 1200,
      tr: [100, 200, 300, 400, 500, 600, 0, 800, 900, 1000, 1100, 1200],
      am: 645,
    });
    expect(compactVolume(stored({ history: months([10, 20, 30]) }))).toMatchObject({ tr: [0, 0, 0, 0, 0, 0, 0, 0, 0, 10, 20, 30], am: 20 });
    expect(averageMonthlySearches(stored({ avgMonthlySearches: null, history }))).toBe(645);
  });

  it("shows the provider's average on keyword records, else the months' average", () => {
    expect(averageMonthlySearches(stored({}))).toBe(1000);
    expect(averageMonthlySearches(stored({ avgMonthlySearches: null, history: months([10, 20]) }))).toBe(15);
    expect(averageMonthlySearches(stored({ avgMonthlySearches: null }))).toBeNull();
  });
});
