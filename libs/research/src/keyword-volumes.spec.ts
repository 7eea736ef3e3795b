import { SqliteEventStore } from '@rank/event-store/sqlite/sqlite-event-store';
import { KeywordDataError } from '@rank/providers/keyword-data/keyword-data-error';
import type { KeywordDataProvider } from './keyword-data-providers';
import { KeywordVolumes } from './keyword-volumes';
import { VolumeRecorder } from './volume-recorder';
import type { StoredVolume, VolumesReader } from './volumes.reader';

const NOW = new Date('2026-03-15T12:00:00.000Z');
const market = { geoCode: 'US', langCode: 'en' };
const stored = (keyword: string, avg: number | null): StoredVolume => ({
  ...market,
  keyword,
  source: 'dataforseo',
  avgMonthlySearches: avg,
  competition: null,
  competitionIndex: null,
  cpcLow: null,
  cpcHigh: 1.5,
  currency: 'USD',
  history: [],
  fetchedAt: '2026-03-01T00:00:00.000Z',
});
const readerOf = (rows: StoredVolume[]) => ({ latest: async () => rows, history: async () => [] }) as unknown as VolumesReader;

function provider(
  answer: () => Promise<Awaited<ReturnType<KeywordDataProvider['searchVolumes']>>>,
): KeywordDataProvider & { asked: string[][] } {
  const asked: string[][] = [];
  return {
    source: 'dataforseo',
    asked,
    searchVolumes: async (_m, keywords) => {
      asked.push([...keywords]);
      return answer();
    },
    ideasForKeywords: async () => [],
    ideasForSite: async () => [],
  };
}

describe('KeywordVolumes.lookup', () => {
  let store: SqliteEventStore;
  const clock = { now: () => NOW };
  beforeEach(() => {
    store = new SqliteEventStore(':memory:');
  });
  afterEach(() => store.close());

  it('answers stored figures without asking the provider', async () => {
    const p = provider(async () => []);
    const volumes = new KeywordVolumes(readerOf([stored('shoes', 900)]), new VolumeRecorder(store), clock, p);
    expect(await volumes.lookup('Shoes', market)).toMatchObject({ kind: 'found', volume: { keyword: 'shoes', avgMonthlySearches: 900 } });
    expect(p.asked).toEqual([]);
  });

  it('asks the provider again for figures stored over a month ago, and falls back to them when it fails', async () => {
    // Before, a keyword nobody tracks (a serp-check's) kept its first figures for ever.
    const stale = { ...stored('shoes', 900), fetchedAt: '2026-02-01T00:00:00.000Z' };
    const fresh = provider(async () => [
      { keyword: 'shoes', avgMonthlySearches: 1200, competition: 'LOW', competitionIndex: 5, cpcLow: 0.1, cpcHigh: 0.4, history: [] },
    ]);
    expect(await new KeywordVolumes(readerOf([stale]), new VolumeRecorder(store), clock, fresh).lookup('shoes', market)).toMatchObject({
      kind: 'found',
      volume: { avgMonthlySearches: 1200, fetchedAt: NOW.toISOString() },
    });
    expect(fresh.asked).toEqual([['shoes']]);
    const failing = provider(async () => {
      throw new KeywordDataError('dataforseo', 'timeout', 'no answer');
    });
    expect(await new KeywordVolumes(readerOf([stale]), new VolumeRecorder(store), clock, failing).lookup('shoes', market)).toEqual({
      kind: 'found',
      volume: stale,
    });
  });

  it('answers none for a stored keyword the provider had no data for', async () => {
    const volumes = new KeywordVolumes(readerOf([stored('zzqx', null)]), new VolumeRecorder(store), clock, null);
    expect(await volumes.lookup('zzqx', market)).toEqual({ kind: 'none' });
  });

  it('asks the provider live on a miss and records what it fetched', async () => {
    const p = provider(async () => [
      { keyword: 'SHOES', avgMonthlySearches: 700, competition: 'LOW', competitionIndex: 5, cpcLow: 0.1, cpcHigh: 0.4, history: [] },
    ]);
    const volumes = new KeywordVolumes(readerOf([]), new VolumeRecorder(store), clock, p);
    expect(await volumes.lookup(' shoes ', market)).toMatchObject({
      kind: 'found',
      volume: { keyword: 'shoes', avgMonthlySearches: 700, fetchedAt: NOW.toISOString() },
    });
    expect(p.asked).toEqual([['shoes']]);
    const [event] = await store.readStream('volumes-US-en');
    expect(event).toMatchObject({
      type: 'KeywordVolumesFetched',
      data: { keywords: [expect.objectContaining({ keyword: 'shoes', avgMonthlySearches: 700 })] },
    });
  });

  it('answers none without a provider, and failed when the live call fails', async () => {
    expect(await new KeywordVolumes(readerOf([]), new VolumeRecorder(store), clock, null).lookup('shoes', market)).toEqual({
      kind: 'none',
    });
    const failing = provider(async () => {
      throw new KeywordDataError('dataforseo', 'timeout', 'no answer');
    });
    expect(await new KeywordVolumes(readerOf([]), new VolumeRecorder(store), clock, failing).lookup('shoes', market)).toEqual({
      kind: 'failed',
      reason: 'dataforseo: no answer',
    });
    expect(await store.readStream('volumes-US-en')).toEqual([]);
  });
});
