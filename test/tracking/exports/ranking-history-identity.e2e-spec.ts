import { RankingHistoryReader } from '@rank/tracking/exports/ranking-history.reader';
import type { SeededCheck } from '../../support/seed-checks';
import type { TestApp } from '../../support/test-app';
import { createProject, NOW, seed, serp, startReadsApp } from '../reads/reads-fixture';

/**
 * The exports' "latest two successful checks up to the last day" now reads the 35 days before that
 * day first and the checks before them only for keywords with fewer than two checks there. This proves
 * the answer did not change: the previous query, kept verbatim below, and the new reader run on the
 * same checks, for several last days, among them keywords checked daily, weekly, once, long ago, a
 * replayed check, a failure and checks after the last day.
 */
const OLD_LATEST_CHECKS = (
  asOfDay: boolean,
) => `SELECT DISTINCT keyword_id AS keywordId, checked_at, check_id, position, url, toString(toDate(checked_at)) AS day
       FROM keyword_updates
       WHERE project_id = {projectId:String} AND keyword_id IN {keywordIds:Array(String)} AND status = 'success'
         ${asOfDay ? 'AND toDate(checked_at) <= {asOfDay:Date}' : ''}
       ORDER BY keywordId, checked_at DESC, check_id DESC
       LIMIT 2 BY keywordId`;

const DAY_MS = 86_400_000;

describe("exports: each keyword's latest two checks, recent partitions first", () => {
  let app: TestApp;
  let projectId: string;
  let keywordIds: string[];

  beforeAll(async () => {
    app = await startReadsApp();
    const key = (await app.createAccount()).apiKey;
    const values = ['daily', 'weekly', 'once, lately', 'once, long ago', 'twice, far apart', 'replayed', 'failed lately', 'never checked'];
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
      ...Array.from({ length: 90 }, (_, d) => on('daily', d, d % 7, d % 2 ? 'a' : 'b')),
      ...Array.from({ length: 14 }, (_, w) => on('weekly', w * 7 + 2, 2 + (w % 5), 'c')),
      on('once, lately', 4, 3, 'd'),
      on('once, long ago', 300, 8, 'e'),
      on('twice, far apart', 200, 5, 'f'),
      on('twice, far apart', 10, 9, 'g'),
      on('replayed', 3, 4, 'h'),
      on('replayed', 2, 6, 'h'),
      on('failed lately', 60, 4, 'i'),
      {
        projectId,
        keywordId: created.ids['failed lately']!,
        at: new Date(NOW.getTime() - DAY_MS).toISOString(),
        failedReason: 'Blocked by Google (captcha)',
      },
    ];
    const ids = await seed(app, checks);
    await seed(app, [{ ...checks[checks.length - 3]!, checkId: ids[ids.length - 3]! }]);
  }, 60_000);
  afterAll(() => app.close());

  it.each([
    ['today', 0],
    ['a week ago', 7],
    ['45 days ago', 45],
    ['250 days ago', 250],
    ['any time', null],
  ])('as of %s', async (_label, daysAgo) => {
    const store = app.running.stores.readStore;
    const asOfDay = daysAgo === null ? undefined : new Date(NOW.getTime() - daysAgo * DAY_MS).toISOString().slice(0, 10);
    const rows = await store.query<{ keywordId: string; position: number; url: string; day: string }>(
      OLD_LATEST_CHECKS(asOfDay !== undefined),
      { projectId, keywordIds, ...(asOfDay === undefined ? {} : { asOfDay }) },
    );
    const before = new Map<string, { position: number; url: string; day: string; previousPosition: number | null }>();
    for (const row of rows) {
      const check = before.get(row.keywordId);
      if (check) check.previousPosition = Number(row.position);
      else before.set(row.keywordId, { position: Number(row.position), url: row.url, day: row.day, previousPosition: null });
    }
    expect(before.size).toBeGreaterThan(0);
    const reader = new RankingHistoryReader(store);
    const after = await reader.latestChecks(projectId, keywordIds, asOfDay);
    expect(Object.fromEntries(after)).toEqual(Object.fromEntries(before));
    if (asOfDay !== undefined) {
      // The summary export's one statement (day figures and latest checks side by side) gives the same checks.
      const { latest } = await reader.summaries(projectId, keywordIds, { startDate: '2000-01-01', endDate: asOfDay });
      expect(Object.fromEntries(latest)).toEqual(Object.fromEntries(before));
      // So does the full export's (day cells and latest checks side by side), over a range with checked days.
      const range = { startDate: '2000-01-01', endDate: asOfDay };
      const days = await reader.checkedDays(projectId, keywordIds, range);
      expect(days.length).toBeGreaterThan(0);
      const page = await reader.fullExportPage(projectId, keywordIds, range, days, ';');
      expect(Object.fromEntries(page.latest)).toEqual(Object.fromEntries(before));
    }
  });
});
