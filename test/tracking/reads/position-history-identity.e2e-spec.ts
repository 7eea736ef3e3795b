import type { ReadStore } from '@rank/read-store/read-store.port';
import {
  CheckLocation,
  CheckOutcome,
  CheckSnapshot,
  PositionHistoryReader,
} from '@rank/tracking/reads/position-history/position-history.reader';
import type { SerpItem } from '@rank/tracking/reads/position-history/serp-movement';
import type { SeededCheck } from '../../support/seed-checks';
import type { TestApp } from '../../support/test-app';
import { createProject, NOW, seed, serp, startReadsApp } from './reads-fixture';

/**
 * position-history's snapshot is now one statement (its checks picked by a scalar subquery over the
 * last days, the whole history only when no earlier success is there) instead of four. This proves
 * the answer did not change: the previous reader's queries, kept verbatim below, and the new reader
 * run on the same checks, for every seeded check: daily, biweekly, a first check, a previous success
 * beyond the window (after a gap and after a failure streak), failures, replayed checks, two checks
 * of the same millisecond, and checks with and without AI Overview sources.
 */
async function previousSnapshot(store: ReadStore, checkId: string, at: CheckLocation): Promise<CheckSnapshot | undefined> {
  const key = { projectId: at.projectId, keywordId: at.keywordId, at: at.checkedAt, checkId };
  const [outcome] = await store.query<CheckOutcome>(
    `SELECT status, position, failure_reason AS failureReason, source
       FROM keyword_updates
       WHERE project_id = {projectId:String} AND keyword_id = {keywordId:String}
         AND checked_at = {at:DateTime64(3, 'UTC')} AND check_id = {checkId:String}
       ORDER BY version DESC LIMIT 1`,
    key,
  );
  if (!outcome) return undefined;
  if (outcome.status !== 'success') return { outcome, results: [], aiOverview: [], previousResults: null };
  const [previous] = await store.query<{ checkId: string; checkedAtMs: string }>(
    `SELECT check_id AS checkId, toString(toUnixTimestamp64Milli(checked_at)) AS checkedAtMs
       FROM keyword_updates
       WHERE project_id = {projectId:String} AND keyword_id = {keywordId:String} AND status = 'success'
         AND checked_at <= {at:DateTime64(3, 'UTC')}
         AND (checked_at < {at:DateTime64(3, 'UTC')} OR check_id < {checkId:String})
       ORDER BY checked_at DESC, check_id DESC LIMIT 1`,
    key,
  );
  const resultsOf = (table: string, checkIds: string[], since: Date) =>
    store.query<SerpItem & { checkId: string }>(
      `SELECT check_id AS checkId, position,
              argMax(url, version) AS url, argMax(title, version) AS title, argMax(domain, version) AS domain
       FROM ${table}
       WHERE project_id = {projectId:String} AND keyword_id = {keywordId:String}
         AND checked_at >= {since:DateTime64(3, 'UTC')} AND checked_at <= {at:DateTime64(3, 'UTC')}
         AND check_id IN {checkIds:Array(String)}
       GROUP BY check_id, position
       ORDER BY position`,
      { projectId: key.projectId, keywordId: key.keywordId, at: key.at, since, checkIds },
    );
  const [results, aiOverview] = await Promise.all([
    resultsOf(
      'serp_results',
      previous ? [checkId, previous.checkId] : [checkId],
      previous ? new Date(Number(previous.checkedAtMs)) : at.checkedAt,
    ),
    resultsOf('ai_overview_sources', [checkId], at.checkedAt),
  ]);
  const item = ({ position, title, domain, url }: SerpItem): SerpItem => ({ position, title, domain, url });
  return {
    outcome,
    results: results.filter((r) => r.checkId === checkId).map(item),
    aiOverview: aiOverview.map(item),
    previousResults: previous ? results.filter((r) => r.checkId === previous.checkId).map(item) : null,
  };
}

const DAY_MS = 86_400_000;

describe('position-history: one statement for a check and the one before it', () => {
  let app: TestApp;
  let checkIds: string[];

  beforeAll(async () => {
    app = await startReadsApp();
    const key = (await app.createAccount()).apiKey;
    const values = ['daily', 'biweekly', 'once', 'gap', 'failure streak', 'replayed', 'same moment'];
    const created = await createProject(app, key, { domain: 'ours.com' }, [{ keywords: values, geoCode: 'US', langCode: 'en' }]);
    const projectId = created.projectId;
    const on = (keyword: string, daysAgo: number, position: number, extra: Partial<SeededCheck> = {}): SeededCheck => ({
      projectId,
      keywordId: created.ids[keyword]!,
      at: new Date(NOW.getTime() - daysAgo * DAY_MS).toISOString(),
      projectDomains: ['ours.com'],
      // Rivals move with the day, so consecutive checks differ in more than our own place.
      urls: serp(
        { ...(position ? { [position]: 'https://ours.com/a' } : {}), [1 + (daysAgo % 5)]: `https://rival${daysAgo % 3}.example/` },
        35,
      ),
      ...extra,
    });
    const failed = (keyword: string, daysAgo: number): SeededCheck => ({
      projectId,
      keywordId: created.ids[keyword]!,
      at: new Date(NOW.getTime() - daysAgo * DAY_MS).toISOString(),
      failedReason: 'Blocked by Google (captcha)',
    });
    const sameMoment = new Date(NOW.getTime() - 2 * DAY_MS).toISOString();
    const checks: SeededCheck[] = [
      ...Array.from({ length: 40 }, (_, d) =>
        on(
          'daily',
          d,
          d % 7 === 3 ? 0 : 1 + (d % 33),
          d % 4 === 0 ? { aiOverviewUrls: ['https://ours.com/ai', `https://cited${d}.example/`] } : {},
        ),
      ),
      failed('daily', 0.5),
      ...Array.from({ length: 6 }, (_, w) => on('biweekly', w * 14 + 1, 2 + w)),
      on('once', 3, 12),
      on('gap', 120, 5),
      on('gap', 45, 9),
      on('gap', 1, 4),
      on('failure streak', 30, 6),
      ...Array.from({ length: 20 }, (_, d) => failed('failure streak', d + 2)),
      on('failure streak', 1, 8),
      on('replayed', 4, 3),
      on('replayed', 3, 5),
      on('same moment', 2, 7, { at: sameMoment }),
      on('same moment', 2, 9, { at: sameMoment }),
      on('same moment', 1, 2),
    ];
    checkIds = await seed(app, checks);
    // A replay of both checks of 'replayed': each is a second row until ClickHouse merges it.
    const replayed = checks.flatMap((check, i) =>
      check.keywordId === created.ids['replayed'] ? [{ ...check, checkId: checkIds[i]! }] : [],
    );
    await seed(app, replayed);
  }, 60_000);
  afterAll(() => app.close());

  it('answers every seeded check as the four queries did', async () => {
    const store = app.running.stores.readStore;
    const reader = new PositionHistoryReader(store);
    let compared = 0;
    let withPrevious = 0;
    for (const checkId of checkIds) {
      const at = await reader.locate(checkId);
      expect(at).toBeDefined();
      const before = await previousSnapshot(store, checkId, at!);
      const after = await reader.snapshot(checkId, at!);
      expect({ checkId, snapshot: after }).toEqual({ checkId, snapshot: before });
      compared += 1;
      if (before?.previousResults) withPrevious += 1;
    }
    // The comparison covers the interesting cases, not only empty answers.
    expect(compared).toBe(checkIds.length);
    expect(withPrevious).toBeGreaterThan(40);
  });

  it('finds a previous success beyond the first window, after a gap and after a failure streak', async () => {
    const store = app.running.stores.readStore;
    const reader = new PositionHistoryReader(store);
    const lastOfGap = checkIds[40 + 1 + 6 + 1 + 2]!;
    const lastOfStreak = checkIds[40 + 1 + 6 + 1 + 3 + 1 + 20]!;
    for (const checkId of [lastOfGap, lastOfStreak]) {
      const snapshot = await reader.snapshot(checkId, (await reader.locate(checkId))!);
      expect(snapshot?.outcome.status).toBe('success');
      expect(snapshot?.previousResults).toHaveLength(35);
    }
  });
});
