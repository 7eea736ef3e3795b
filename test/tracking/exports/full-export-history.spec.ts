import {
  FULL_EXPORT_CELLS_PER_QUERY,
  FULL_EXPORT_KEYWORDS_PER_QUERY,
  fullExportKeywordsPerQuery,
  loadFullExportHistory,
} from '@rank/tracking/exports/full-export-history';
import type { DayRange, LatestCheck, RankingHistoryReader } from '@rank/tracking/exports/ranking-history.reader';

describe('full export: reading the cells', () => {
  it('keeps a query under the cell budget however long the window, and never below one keyword', () => {
    expect(fullExportKeywordsPerQuery(0)).toBe(FULL_EXPORT_KEYWORDS_PER_QUERY);
    expect(fullExportKeywordsPerQuery(365)).toBe(FULL_EXPORT_KEYWORDS_PER_QUERY);
    expect(fullExportKeywordsPerQuery(3650) * 3650).toBeLessThanOrEqual(FULL_EXPORT_CELLS_PER_QUERY);
    expect(fullExportKeywordsPerQuery(3650)).toBe(109);
    expect(fullExportKeywordsPerQuery(10 * FULL_EXPORT_CELLS_PER_QUERY)).toBe(1);
  });

  it('asks for the keywords in id order, a page at a time, and answers by keyword id', async () => {
    const asked: string[][] = [];
    const history = {
      fullExportPage: async (_projectId: string, ids: readonly string[], _range: DayRange, days: readonly string[], separator: string) => {
        asked.push([...ids]);
        return {
          // Keywords ending in 0 have no successful check in the range: absent, as from ClickHouse.
          cells: new Map(ids.filter((id) => !id.endsWith('0')).map((id) => [id, days.map(() => id.slice(-2)).join(separator)])),
          latest: new Map(
            ids.map((id): [string, LatestCheck] => [
              id,
              { position: 1, url: `https://x.example/${id}`, day: '2026-01-01', previousPosition: null },
            ]),
          ),
        };
      },
    } as unknown as RankingHistoryReader;
    // Export order (by text) is not id order: the reads must not follow it.
    const ids = Array.from({ length: 2 * FULL_EXPORT_KEYWORDS_PER_QUERY + 50 }, (_, i) => `kw${String(i).padStart(5, '0')}`).reverse();
    const loaded = await loadFullExportHistory(
      history,
      'p1',
      ids,
      { startDate: '2026-01-01', endDate: '2026-01-02' },
      ['2026-01-02', '2026-01-01'],
      ';',
    );

    expect(asked.map((page) => page.length)).toEqual([FULL_EXPORT_KEYWORDS_PER_QUERY, FULL_EXPORT_KEYWORDS_PER_QUERY, 50]);
    expect(asked.flat()).toEqual([...ids].sort());
    expect(loaded.cellsOf('kw00017')).toBe('17;17');
    expect(loaded.cellsOf('kw00020')).toBeUndefined();
    expect(loaded.latestOf('kw02049')?.url).toBe('https://x.example/kw02049');
    expect(loaded.latestOf('unknown')).toBeUndefined();
  });
});
