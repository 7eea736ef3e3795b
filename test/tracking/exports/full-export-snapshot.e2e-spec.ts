import type { ReadStore } from '@rank/read-store/read-store.port';
import { loadFullExportHistory } from '@rank/tracking/exports/full-export-history';
import { RankingHistoryReader } from '@rank/tracking/exports/ranking-history.reader';
import type { SeededCheck } from '../../support/seed-checks';
import type { TestApp } from '../../support/test-app';
import { createProject, NOW, seed, serp, startReadsApp } from '../reads/reads-fixture';

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

/**
 * A line of the full export is one snapshot: a check that the projector writes while a page is read
 * is in both the line's last day cell and its SERP, URL and Change, or in neither. The read store
 * here lets the page's first statement run, then writes such a check, and only then lets any other
 * statement start: a page read as two statements (the cells, then the latest checks) gave the new
 * check's position in SERP beside the day cell of the check before it.
 */
describe('full export: each line from one snapshot', () => {
  let app: TestApp;
  let projectId: string;
  let ids: Record<string, string>;
  const range = { startDate: '2026-03-01', endDate: '2026-03-20' };

  beforeAll(async () => {
    app = await startReadsApp();
    const key = (await app.createAccount()).apiKey;
    // 'daily' has both its latest checks in the recent window; 'rarely' has one there and one months
    // before, so its earlier check is read by a statement of its own.
    ({ projectId, ids } = await createProject(app, key, { domain: 'ours.com' }, [
      { keywords: ['daily', 'rarely'], geoCode: 'US', langCode: 'en' },
    ]));
    const checks: SeededCheck[] = [
      ...Array.from({ length: 10 }, (_, d) => check('daily', NOW.getTime() - d * DAY_MS - 6 * HOUR_MS, 5)),
      check('rarely', NOW.getTime() - 120 * DAY_MS, 8),
      check('rarely', NOW.getTime() - 6 * HOUR_MS, 7),
    ];
    await seed(app, checks);
  }, 60_000);
  afterAll(() => app.close());

  function check(keyword: string, at: number, position: number): SeededCheck {
    return {
      projectId,
      keywordId: ids[keyword]!,
      at: new Date(at).toISOString(),
      projectDomains: ['ours.com'],
      urls: serp({ [position]: `https://ours.com/${keyword}-${position}` }, 20),
    };
  }

  it('shows a check written between statements in neither the cells nor the latest columns', async () => {
    const store = app.running.stores.readStore;
    const history = new RankingHistoryReader(store);
    const keywordIds = [ids['daily']!, ids['rarely']!];
    const days = await history.checkedDays(projectId, keywordIds, range);
    expect(days[0]).toBe(range.endDate);

    // Later the same day, at another position: what the projector writes while the page is read.
    const landing = [check('daily', NOW.getTime() - HOUR_MS, 2), check('rarely', NOW.getTime() - HOUR_MS, 3)];
    let statements = 0;
    let landed: Promise<unknown> | undefined;
    const racing = new Proxy(store, {
      get(target, property, receiver) {
        if (property !== 'query') return Reflect.get(target, property, receiver);
        return async (sql: string, params?: Record<string, unknown>) => {
          statements++;
          if (landed) await landed;
          const rows = await target.query(sql, params);
          landed ??= seed(app, landing);
          await landed;
          return rows;
        };
      },
    }) as ReadStore;

    const read = await loadFullExportHistory(new RankingHistoryReader(racing), projectId, keywordIds, range, days, ';');

    // Both checks did land in between: a read made now has them.
    const now = await history.fullExportPage(projectId, keywordIds, range, days, ';');
    expect(now.latest.get(ids['daily']!)?.position).toBe(2);
    expect(now.latest.get(ids['rarely']!)?.position).toBe(3);
    expect(read.latestOf(ids['daily']!)).toMatchObject({ position: 5, previousPosition: 5, day: range.endDate });
    expect(read.latestOf(ids['rarely']!)).toMatchObject({ position: 7, previousPosition: 8, day: range.endDate });
    for (const keywordId of keywordIds) {
      const lastDayCell = read.cellsOf(keywordId)!.split(';')[0];
      expect(lastDayCell).toBe(String(read.latestOf(keywordId)!.position));
    }
    // 'rarely' needed a second statement, which ran after the checks landed.
    expect(statements).toBe(2);
  });
});
