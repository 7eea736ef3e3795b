import { PagesReader, LatestPositionRow, PeriodRow } from '@rank/tracking/reads/pages/pages.reader';
import { trendPeriods } from '@rank/tracking/reads/pages/page-trend';
import type { KeywordFilter } from '@rank/tracking/reads/shared/keyword-filter';
import type { SeededCheck } from '../../support/seed-checks';
import type { TestApp } from '../../support/test-app';
import { createProject, NOW, seed, serp, startReadsApp } from './reads-fixture';

/**
 * The pages read now looks for each keyword's latest check in the recent partitions first and over
 * the whole history only for keywords with none there. This proves the rows did not change: the
 * previous query, kept verbatim below, and the new reader run on the same checks, among them
 * keywords last checked months ago (the fallback), a replayed check, a failure after a success, and
 * a keyword never checked.
 */
const OLD_LATEST_POSITIONS = `SELECT keyword_id AS keywordId, pick.1 AS position, pick.2 AS url, toString(toUnixTimestamp64Milli(pick.3)) AS checkedAtMs
       FROM (
         SELECT keyword_id, argMax(tuple(position, url, checked_at), tuple(checked_at, check_id)) AS pick
         FROM keyword_updates
         WHERE project_id = {projectId:String} AND status = 'success'
         GROUP BY keyword_id
       )`;

/** The first day each page ranked in the window, as read from keyword_updates before the trends were one statement. */
const OLD_FIRST_DAYS = `SELECT url, toString(toDate(min(checked_at))) AS firstDay
         FROM keyword_updates
         WHERE project_id = {projectId:String} AND status = 'success' AND position > 0
           AND checked_at >= {from:DateTime64(3, 'UTC')} AND checked_at < {to:DateTime64(3, 'UTC')}
           AND keyword_id IN {keywordIds:Array(String)} AND url IN {pageUrls:Array(String)}
         GROUP BY url`;

/** The trend series as they were read from keyword_updates before keyword_day_checks (migration 011). */
const OLD_PERIOD_AVERAGES = (period: 'toMonday(checked_at)' | 'toDate(checked_at)', since: string) => `
  SELECT latest.1 AS url, toString(bucket) AS period, avg(latest.2) AS avgPosition, toUInt32(count()) AS keywordCount
  FROM (
    SELECT keyword_id, ${period} AS bucket, argMax(tuple(url, position), tuple(checked_at, check_id)) AS latest
    FROM keyword_updates
    WHERE project_id = {projectId:String} AND status = 'success'
      AND checked_at >= ${since} AND checked_at < {to:DateTime64(3, 'UTC')}
      AND keyword_id IN {keywordIds:Array(String)}
    GROUP BY keyword_id, bucket
  )
  WHERE latest.2 > 0 AND latest.1 IN {pageUrls:Array(String)}
  GROUP BY latest.1, bucket`;

const DAY_MS = 86_400_000;
const byPeriod = (rows: PeriodRow[]) => [...rows].sort((a, b) => (a.url + a.period < b.url + b.period ? -1 : 1));
const byUrl = (rows: { url: string }[]) => [...rows].sort((a, b) => (a.url < b.url ? -1 : 1));
const byKeyword = (rows: LatestPositionRow[]) => [...rows].sort((a, b) => (a.keywordId < b.keywordId ? -1 : 1));

describe("pages: each keyword's latest position, recent partitions first", () => {
  let app: TestApp;
  let projectId: string;
  let keywordIds: string[];
  let removedId: string;

  beforeAll(async () => {
    app = await startReadsApp();
    const key = (await app.createAccount()).apiKey;
    const values = ['daily', 'stopped 40 days ago', 'stopped 200 days ago', 'failed lately', 'replayed', 'never checked'];
    const created = await createProject(app, key, { domain: 'ours.com' }, [
      { keywords: [...values, 'removed'], geoCode: 'US', langCode: 'en' },
    ]);
    projectId = created.projectId;
    keywordIds = values.map((v) => created.ids[v]!);
    removedId = created.ids['removed']!;
    const on = (keyword: string, daysAgo: number, position: number, page = 'a'): SeededCheck => ({
      projectId,
      keywordId: created.ids[keyword]!,
      at: new Date(NOW.getTime() - daysAgo * DAY_MS).toISOString(),
      projectDomains: ['ours.com'],
      urls: serp(position ? { [position]: `https://ours.com/${page}` } : {}, 12),
    });
    const checks: SeededCheck[] = [
      ...Array.from({ length: 60 }, (_, d) => on('daily', d, 1 + (d % 9), d % 2 ? 'a' : 'b')),
      ...Array.from({ length: 20 }, (_, d) => on('stopped 40 days ago', 40 + d, 3 + (d % 4), 'c')),
      on('stopped 200 days ago', 230, 7, 'd'),
      on('stopped 200 days ago', 200, 0),
      on('failed lately', 50, 4, 'e'),
      on('failed lately', 3, 6, 'f'),
      {
        projectId,
        keywordId: created.ids['failed lately']!,
        at: new Date(NOW.getTime() - DAY_MS).toISOString(),
        failedReason: 'Blocked by Google (captcha)',
      },
      // Three checks on one UTC day (10:12, 15:00 and 17:24 five days ago): the last one speaks.
      on('daily', 5.2, 3, 'h'),
      on('daily', 4.9, 8, 'h'),
      // Checked daily on page a, then removed: its rows stay in the read model but count for nothing.
      ...Array.from({ length: 30 }, (_, d) => on('removed', d, 1, 'a')),
      on('replayed', 2, 2, 'g'),
    ];
    const ids = await seed(app, checks);
    await seed(app, [{ ...checks[checks.length - 1]!, checkId: ids[ids.length - 1]! }]);
    const removal = await app.request('DELETE', '/api/projects/keywords', { key, body: { projectId, keywordIds: [removedId] } });
    expect(removal.status).toBe(200);
  }, 60_000);
  afterAll(() => app.close());

  it('gives the rows of the single scan, the fallback included', async () => {
    const store = app.running.stores.readStore;
    const before = await store.query<LatestPositionRow>(OLD_LATEST_POSITIONS, { projectId });
    expect(before).toHaveLength(6); // the removed keyword's too: the controller drops it
    const { window } = trendPeriods(NOW.toISOString().slice(0, 10));
    const { latest } = await new PagesReader(store).overview(projectId, keywordIds, { kind: 'only', keywordIds }, window, NOW);
    expect(byKeyword(latest)).toEqual(byKeyword(before));
  });

  it('gives the trend series of the previous query, weekly and daily', async () => {
    const store = app.running.stores.readStore;
    const { window } = trendPeriods(NOW.toISOString().slice(0, 10));
    const pageUrls = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'].map((page) => `https://ours.com/${page}`);
    const params = { projectId, keywordIds, pageUrls, from: window.from, to: window.to, dailyFrom: window.dailyFrom };
    const weekly = await store.query<PeriodRow>(OLD_PERIOD_AVERAGES('toMonday(checked_at)', "{from:DateTime64(3, 'UTC')}"), params);
    const daily = await store.query<PeriodRow>(
      OLD_PERIOD_AVERAGES('toDate(checked_at)', "toDateTime64({dailyFrom:Date}, 3, 'UTC')"),
      params,
    );
    expect(weekly.length).toBeGreaterThan(10);
    expect(daily.length).toBeGreaterThan(10);
    const firstDays = await store.query<{ url: string; firstDay: string }>(OLD_FIRST_DAYS, params);
    expect(firstDays.length).toBeGreaterThan(5);
    // The removed keyword ranked first on page a every day: counted, it would change a's series.
    // The overview reads the trends of every page; the previous queries were asked for these, all of the fixture's.
    const trendsOf = async (keywords: KeywordFilter) =>
      (await new PagesReader(store).overview(projectId, keywordIds, keywords, window, NOW)).trends;
    const unfiltered = await trendsOf({ kind: 'all' });
    expect(byPeriod(unfiltered.daily)).not.toEqual(byPeriod(daily));
    // The current keywords listed, or the removed one left out: the same rows as the previous queries.
    for (const keywords of [
      { kind: 'only', keywordIds },
      { kind: 'except', keywordIds: [removedId] },
    ] as const) {
      const after = await trendsOf(keywords);
      expect(byPeriod(after.weekly)).toEqual(byPeriod(weekly));
      expect(byPeriod(after.daily)).toEqual(byPeriod(daily));
      expect(byUrl(after.firstDays)).toEqual(byUrl(firstDays));
    }
  });
});
