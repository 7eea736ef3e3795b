import { PagesReader, LatestPositionRow } from '@rank/tracking/reads/pages/pages.reader';
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

const DAY_MS = 86_400_000;
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
});
