import { RankingHistoryReader } from '@rank/tracking/exports/ranking-history.reader';
import { positionSummaryOf } from '@rank/tracking/exports/summary-history';
import type { SeededCheck } from '../../support/seed-checks';
import type { TestApp } from '../../support/test-app';
import { createProject, NOW, seed, serp, startReadsApp } from '../reads/reads-fixture';
import { previousDailyPositions, previousSummary } from './previous-exports';

/**
 * The summary export sums each keyword's days up in ClickHouse from keyword_day_checks (migration 011).
 * This proves the figures equal the previous way, kept verbatim below: each day's latest successful
 * check read from keyword_updates, summed up in JavaScript, on checks with failures before and after
 * successes on one day, several successes on a day, a replayed check and a keyword never checked.
 */
const DAY_MS = 86_400_000;
const VALUES = ['often ranking', 'never ranking', 'mixed', 'failing', 'never checked'];

describe('summary export: day figures from keyword_day_checks equal the previous day-by-day sums', () => {
  let app: TestApp;
  let projectId: string;
  let keywordIds: string[];
  let removedId: string;

  beforeAll(async () => {
    app = await startReadsApp();
    const key = (await app.createAccount()).apiKey;
    const created = await createProject(app, key, { domain: 'ours.com' }, [
      { keywords: [...VALUES, 'removed'], geoCode: 'US', langCode: 'en' },
    ]);
    projectId = created.projectId;
    keywordIds = VALUES.map((v) => created.ids[v]!);
    removedId = created.ids['removed']!;
    let state = 5;
    const next = (n: number) => ((state = (state * 1_103_515_245 + 12_345) % 2_147_483_648), state % n);
    const checks: SeededCheck[] = [];
    for (const [k, keywordId] of keywordIds.slice(0, 4).entries()) {
      for (let day = 60; day >= 0; day--) {
        const base = NOW.getTime() - day * DAY_MS - 9 * 3_600_000 + k * 60_000;
        for (let n = 0; n < 1 + next(3); n++) {
          const at = new Date(base + n * 3_600_000).toISOString();
          const position = k === 1 ? 0 : k === 0 ? 1 + next(20) : next(4) * 7;
          checks.push(
            (k === 3 && next(2) === 0) || next(10) === 0
              ? { projectId, keywordId, at, failedReason: 'Blocked by Google (captcha)' }
              : {
                  projectId,
                  keywordId,
                  at,
                  projectDomains: ['ours.com'],
                  urls: serp(position ? { [position]: 'https://ours.com/a' } : {}, 30),
                },
          );
        }
      }
    }
    // A keyword checked daily, then removed: its rows stay in the read model.
    for (let day = 60; day >= 0; day--) {
      const at = new Date(NOW.getTime() - day * DAY_MS - 8 * 3_600_000).toISOString();
      checks.push({ projectId, keywordId: removedId, at, projectDomains: ['ours.com'], urls: serp({ 2: 'https://ours.com/a' }, 30) });
    }
    const ids = await seed(app, checks);
    await seed(app, [{ ...checks[3]!, checkId: ids[3]! }]);
    const removal = await app.request('DELETE', '/api/projects/keywords', { key, body: { projectId, keywordIds: [removedId] } });
    expect(removal.status).toBe(200);
  }, 60_000);
  afterAll(() => app.close());

  it.each([
    ['60 days', '2026-01-19', '2026-03-20'],
    ['a past month', '2026-02-01', '2026-02-28'],
    ['one day', '2026-03-01', '2026-03-01'],
  ])('%s', async (_label, startDate, endDate) => {
    const store = app.running.stores.readStore;
    const range = { startDate, endDate };
    const old = await previousDailyPositions(store, projectId, keywordIds, range);
    const expected = Object.fromEntries(keywordIds.map((id) => [id, previousSummary(old.get(id)?.values() ?? [])]));
    expect(Object.values(expected).filter((s) => s.checkedDays > 0).length).toBeGreaterThanOrEqual(3);
    const reader = new RankingHistoryReader(store);
    const days = await reader.daySummaries(projectId, keywordIds, range);
    expect(Object.fromEntries(keywordIds.map((id) => [id, positionSummaryOf(days.get(id))]))).toEqual(expected);
    // The summary export's one statement (day figures and latest checks side by side) gives the same
    // figures, whether it lists the current keywords or leaves the removed one out.
    const listed = await reader.summaries(projectId, keywordIds, range);
    expect(listed.days).toEqual(days);
    const withoutRemoved = await reader.summaries(projectId, keywordIds, range, { kind: 'except', keywordIds: [removedId] });
    expect(withoutRemoved).toEqual(listed);
    // Unfiltered, the removed keyword's rows would be counted.
    expect((await reader.summaries(projectId, keywordIds, range, { kind: 'all' })).days.has(removedId)).toBe(true);
  });
});
