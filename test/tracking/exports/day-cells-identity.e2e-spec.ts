import { RankingHistoryReader } from '@rank/tracking/exports/ranking-history.reader';
import type { SeededCheck } from '../../support/seed-checks';
import type { TestApp } from '../../support/test-app';
import { createProject, NOW, seed, serp, startReadsApp } from '../reads/reads-fixture';

/**
 * The full export's day cells now come out of ClickHouse as text, each day's latest success picked
 * by LIMIT 1 BY in (checked_at DESC, check_id DESC) order. This proves the cells did not change: the
 * previous query (argMax over the (checked_at, check_id) tuple), kept verbatim below, with its cells
 * written as the previous generator wrote them, against the new read, on checks that test the pick:
 * two successes in the same millisecond, a later success the same day, a failure after a success,
 * a day with only a failure, a replayed check, checks outside the range and a keyword never checked.
 */
const PREVIOUS_DAILY_POSITIONS = `SELECT keywordId, groupArray(day) AS days, groupArray(position) AS positions
       FROM (
         SELECT keyword_id AS keywordId, toString(toDate(checked_at)) AS day, argMax(position, (checked_at, check_id)) AS position
         FROM keyword_updates
         WHERE project_id = {projectId:String} AND keyword_id IN {keywordIds:Array(String)} AND status = 'success'
           AND toDate(checked_at) BETWEEN {startDate:Date} AND {endDate:Date}
         GROUP BY keyword_id, day
       )
       GROUP BY keywordId`;

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

describe('full export: day cells written by ClickHouse', () => {
  let app: TestApp;
  let projectId: string;
  let keywordIds: string[];
  const range = { startDate: '2026-03-01', endDate: '2026-03-19' };

  beforeAll(async () => {
    app = await startReadsApp();
    const key = (await app.createAccount()).apiKey;
    const values = ['same millisecond', 'later that day', 'failed after', 'only failed', 'replayed', 'outside', 'never checked'];
    const created = await createProject(app, key, { domain: 'ours.com' }, [{ keywords: values, geoCode: 'US', langCode: 'en' }]);
    projectId = created.projectId;
    keywordIds = values.map((v) => created.ids[v]!);
    const at = (daysAgo: number, hours = 0) => new Date(NOW.getTime() - daysAgo * DAY_MS + hours * HOUR_MS).toISOString();
    const success = (keyword: string, when: string, position: number): SeededCheck => ({
      projectId,
      keywordId: created.ids[keyword]!,
      at: when,
      projectDomains: ['ours.com'],
      urls: serp(position ? { [position]: 'https://ours.com/a' } : {}, 20),
    });
    const failure = (keyword: string, when: string): SeededCheck => ({
      projectId,
      keywordId: created.ids[keyword]!,
      at: when,
      failedReason: 'Blocked by Google (captcha)',
    });
    const checks: SeededCheck[] = [
      ...Array.from({ length: 10 }, (_, d) => success('same millisecond', at(d + 3), 3 + d)),
      ...Array.from({ length: 10 }, (_, d) => success('same millisecond', at(d + 3), 13 - d)),
      ...Array.from({ length: 10 }, (_, d) => success('later that day', at(d + 2, -5), 4)),
      ...Array.from({ length: 10 }, (_, d) => success('later that day', at(d + 2, -1), d % 3)),
      success('failed after', at(4, -4), 6),
      failure('failed after', at(4, -1)),
      failure('only failed', at(5)),
      success('only failed', at(6), 9),
      success('replayed', at(7), 2),
      success('outside', at(30), 1),
      success('outside', at(0), 5),
    ];
    const ids = await seed(app, checks);
    const replayed = checks.findIndex((c) => c.keywordId === created.ids['replayed']);
    await seed(app, [{ ...checks[replayed]!, checkId: ids[replayed]! }]);
  }, 60_000);
  afterAll(() => app.close());

  it('gives the cells the previous query and generator gave', async () => {
    const store = app.running.stores.readStore;
    const history = new RankingHistoryReader(store);
    const days = await history.checkedDays(projectId, keywordIds, range);
    expect(days.length).toBeGreaterThan(10);
    const rows = await store.query<{ keywordId: string; days: string[]; positions: number[] }>(PREVIOUS_DAILY_POSITIONS, {
      projectId,
      keywordIds,
      ...range,
    });
    const previous = new Map(
      rows.map((row) => {
        const byDay = new Map(row.days.map((day, i) => [day, Number(row.positions[i])]));
        return [row.keywordId, days.map((day) => (byDay.has(day) ? String(byDay.get(day)) : '')).join(';')] as const;
      }),
    );
    const { cells, latest } = await history.fullExportPage(projectId, keywordIds, range, days, ';');
    expect(new Map([...cells].sort())).toEqual(new Map([...previous].sort()));
    // The latest checks read in the same statement are those the exports' own read gives.
    expect(Object.fromEntries(latest)).toEqual(Object.fromEntries(await history.latestChecks(projectId, keywordIds, range.endDate)));
    expect(latest.size).toBe(keywordIds.length - 1);
    // Not a comparison of two empty answers: every keyword has cells but the one never checked and
    // the one checked only outside the range; two successes in a millisecond on each of ten days.
    expect(cells.size).toBe(keywordIds.length - 2);
    expect(
      cells
        .get(keywordIds[0]!)!
        .split(';')
        .filter((cell) => cell !== ''),
    ).toHaveLength(10);
  });

  it('leaves out a checked day that is not among the columns, without shifting the cells', async () => {
    const history = new RankingHistoryReader(app.running.stores.readStore);
    const days = await history.checkedDays(projectId, keywordIds, range);
    const { cells: all } = await history.fullExportPage(projectId, keywordIds, range, days, ';');
    // The newest day is not a column (as when its first check lands after the header was read).
    const { cells: withoutNewest } = await history.fullExportPage(projectId, keywordIds, range, days.slice(1), ';');
    const expected = new Map(
      [...all]
        .map(([keywordId, text]) => [keywordId, text.split(';').slice(1)] as const)
        .filter(([, cells]) => cells.some((cell) => cell !== ''))
        .map(([keywordId, cells]) => [keywordId, cells.join(';')]),
    );
    expect(withoutNewest).toEqual(expected);
    expect([...all.values()].some((text) => text.split(';')[0] !== '')).toBe(true);
  });
});
