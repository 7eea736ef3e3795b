import { PagesReader, LatestPositionRow, PeriodRow } from '@rank/tracking/reads/pages/pages.reader';
import { trendPeriods } from '@rank/tracking/reads/pages/page-trend';
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
const byKeyword = (rows: LatestPositionRow[]) => [...rows].sort((a, b) => (a.keywordId < b.keywordId ? -1 : 1));

describe("pages: each keyword's latest position, recent partitions first", () => {
  let app: TestApp;
  let projectId: string;
  let keywordIds: string[];

  beforeAll(async () => {
    app = await startReadsApp();
    const key = (await app.createAccount()).apiKey;
    const values = ['daily', 'stopped 40 days ago', 'stopped 200 days ago', 'failed lately', 'replayed', 'never checked'];
    const created = await createProject(app, key, { domain: 'ours.com' }, [{ keywords: values, geoCode: 'US', langCode: 'en' }]);
    projectId = created.projectId;
    keywordIds = values.map((v) => created.ids[v]!);
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
      on('replayed', 2, 2, 'g'),
    ];
    const ids = await seed(app, checks);
    await seed(app, [{ ...checks[checks.length - 1]!, checkId: ids[ids.length - 1]! }]);
  }, 60_000);
  afterAll(() => app.close());

  it('gives the rows of the single scan, the fallback included', async () => {
    const store = app.running.stores.readStore;
    const before = await store.query<LatestPositionRow>(OLD_LATEST_POSITIONS, { projectId });
    expect(before).toHaveLength(5);
    const after = await new PagesReader(store).latestPositions(projectId, { keywordIds, now: NOW });
    expect(byKeyword(after)).toEqual(byKeyword(before));
    // The whole-history path alone gives them too.
    expect(byKeyword(await new PagesReader(store).latestPositions(projectId))).toEqual(byKeyword(before));
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
    const after = await new PagesReader(store).trends(projectId, keywordIds, pageUrls, window);
    expect(byPeriod(after.weekly)).toEqual(byPeriod(weekly));
    expect(byPeriod(after.daily)).toEqual(byPeriod(daily));
  });
});
