import { loadMigrationsFromDir } from '@rank/read-store/migrations';
import { repositoryPath } from '@rank/platform/repository-path';
import type { CheckEvent } from '@rank/tracking/domain/check.events';
import { RankingHistoryReader } from '@rank/tracking/exports/ranking-history.reader';
import { CompetitorPositionsReader } from '@rank/tracking/reads/competitor-positions/competitor-positions.reader';
import { resolveDayWindow } from '@rank/tracking/reads/shared/day-window';
import { PositionHistoryReader } from '@rank/tracking/reads/position-history/position-history.reader';
import { checkResultsOf, SeededCheck } from '../../support/seed-checks';
import type { TestApp } from '../../support/test-app';
import { createProject, NOW, seed, serp, startReadsApp } from './reads-fixture';

/**
 * Migration 014 stores a check's whole result page (outcome, organic results, AI Overview sources)
 * as one check_snapshots row, and `serp_results` and `ai_overview_sources` became views of it. A
 * server may come from the tables of a row per result (migration 004) through 012 (serp_checks, a
 * check's organic results as arrays) to 014. This proves that the readers of serp_results (competitor
 * positions, the report's domain standings) answer exactly as they did from the table of a row per
 * result, and that every reader of results, position-history too, answers the same from the rows
 * migrations 012 and 014 make from those tables as from the rows the projection writes. The earlier
 * tables' definitions come from migration 004 and their rows from the earlier projection's mapping,
 * kept below. (position-history's answers against its earlier reader's queries are in
 * position-history-identity.e2e-spec.ts.)
 */
const TRACKING_MIGRATIONS = () => loadMigrationsFromDir(repositoryPath('libs', 'tracking', 'migrations'));

type Completed = Extract<CheckEvent, { type: 'CheckCompleted' }>['data'];

/** The earlier tracking projection's rows of one CheckCompleted: a row per organic result, a row per cited source. */
function previousResultRows(data: Completed, version: number) {
  const row = (r: Completed['results'][number]) => ({
    project_id: data.projectId,
    keyword_id: data.keywordId,
    check_id: data.checkId,
    checked_at: Date.parse(data.completedAt),
    position: r.position,
    url: r.url,
    title: r.title,
    domain: r.domain,
    version,
  });
  return { serp_results: data.results.map(row), ai_overview_sources: data.aiOverview.map(row) };
}

const DAY_MS = 86_400_000;
const COMPETITORS = ['rival1.example', 'rival2.example', 'filler7.example', 'nowhere.example'];

describe('check_snapshots (migration 014): the readers of results answer as from a row per result', () => {
  let app: TestApp;
  let projectId: string;
  let keywordIds: string[];
  let checkIds: string[];
  /** check_snapshots as the projection wrote it, versions folded (a replayed check's rows are one). */
  let projected: unknown[];
  /** Every reader's answers with the projection's rows. */
  let fromProjection: Awaited<ReturnType<typeof answers>>;

  const store = () => app.running.stores.readStore;
  const snapshots = () => store().query('SELECT * FROM check_snapshots FINAL ORDER BY ALL');

  /** What every reader of results (position-history, competitor positions, the standings) answers for the seeded checks. */
  async function answers() {
    const nest = app.running.app;
    const history = nest.get(PositionHistoryReader);
    const snapshots = [];
    for (const checkId of checkIds) {
      const at = await history.locate(checkId);
      snapshots.push(at && (await history.snapshot(checkId, at)));
    }
    const window = resolveDayWindow({}, NOW);
    const competitors = [];
    for (const competitor of COMPETITORS) competitors.push(await nest.get(CompetitorPositionsReader).run(projectId, competitor, window));
    const standings = [];
    for (const daysAgo of [0, 1, 3, 6]) {
      const day = new Date(NOW.getTime() - daysAgo * DAY_MS).toISOString().slice(0, 10);
      const standing = await nest.get(RankingHistoryReader).standingsOn(projectId, keywordIds, day, COMPETITORS, 100);
      standings.push({ ...standing, domains: [...standing.domains].sort(([a], [b]) => a.localeCompare(b)) });
    }
    return { snapshots, competitors, standings };
  }

  beforeAll(async () => {
    app = await startReadsApp();
    const key = (await app.createAccount()).apiKey;
    const values = ['daily', 'replayed', 'short page', 'no results', 'failing'];
    const created = await createProject(app, key, { domain: 'ours.com' }, [{ keywords: values, geoCode: 'US', langCode: 'en' }]);
    projectId = created.projectId;
    keywordIds = values.map((value) => created.ids[value]!);
    const check = (keyword: string, daysAgo: number, urls: string[], extra: Partial<SeededCheck> = {}): SeededCheck => ({
      projectId,
      keywordId: created.ids[keyword]!,
      at: new Date(NOW.getTime() - daysAgo * DAY_MS).toISOString(),
      projectDomains: ['ours.com'],
      urls,
      ...extra,
    });
    // Rivals and our page move with the day; rival1 also ranks with a subdomain, which counts as rival1.
    const moving = (daysAgo: number) =>
      serp({
        [1 + (daysAgo % 4)]: 'https://rival1.example/a',
        [6 + (daysAgo % 3)]: `https://shop.rival1.example/${daysAgo}`,
        [12 + (daysAgo % 9)]: 'https://rival2.example/b',
        [3 + (daysAgo % 11)]: 'https://ours.com/page',
      });
    const checks: SeededCheck[] = [
      ...Array.from({ length: 8 }, (_, d) =>
        check('daily', d, moving(d), d % 3 === 0 ? { aiOverviewUrls: ['https://ours.com/ai', `https://cited${d}.example/`] } : {}),
      ),
      // Two checks of one day: the later one is the day's.
      check('daily', 1.2, moving(5)),
      check('replayed', 2, moving(2)),
      check('short page', 1, ['https://rival2.example/x', 'https://ours.com/y', 'https://rival1.example/z']),
      check('short page', 3, ['https://rival1.example/z']),
      check('no results', 1, []),
      check('failing', 1, [], { failedReason: 'Blocked by Google (captcha)' }),
      check('failing', 3, moving(3)),
    ];
    checkIds = await seed(app, checks);
    // The same check delivered twice, as a retried append would.
    const replayed = values.indexOf('replayed');
    await seed(app, [{ ...checks.find((c) => c.keywordId === keywordIds[replayed])!, checkId: checkIds[9]! }]);
    projected = await snapshots();
    fromProjection = await answers();
  }, 60_000);
  afterAll(() => app.close());

  it('the projection writes a row per check, failed and empty ones too, whose views list every result and cited source', async () => {
    // 8 daily + 1 + the replayed one + 2 short + the empty page + 2 of 'failing'.
    expect(projected).toHaveLength(15);
    const count = async (view: string) => {
      const [row] = await store().query<{ n: string }>(`SELECT count() AS n FROM ${view} WHERE project_id = {projectId:String}`, {
        projectId,
      });
      return Number(row!.n);
    };
    expect(await count('serp_results')).toBe(12 * 50 + 3 + 1);
    // Days 0, 3 and 6 of 'daily' cite two sources each.
    expect(await count('ai_overview_sources')).toBe(3 * 2);
  });

  /** The tables of a row per result (migration 004) in place of the views, filled as the earlier projection did; check_snapshots emptied. */
  async function fillEarlierTables(): Promise<void> {
    const earlierTables = TRACKING_MIGRATIONS()
      .find((m) => m.name === '004_tracking')!
      .statements.filter((statement) => /CREATE TABLE IF NOT EXISTS (serp_results|ai_overview_sources)\b/.test(statement));
    expect(earlierTables).toHaveLength(2);
    await store().command('DROP VIEW serp_results');
    await store().command('DROP VIEW ai_overview_sources');
    for (const statement of earlierTables) await store().command(statement);
    await store().command('TRUNCATE TABLE check_snapshots');
    const rows = { serp_results: [] as Record<string, unknown>[], ai_overview_sources: [] as Record<string, unknown>[] };
    for (const event of await checkResultsOf(app.running.stores.eventStore, projectId)) {
      if (event.type !== 'CheckCompleted') continue;
      const earlier = previousResultRows(event.data as Completed, event.position);
      rows.serp_results.push(...earlier.serp_results);
      rows.ai_overview_sources.push(...earlier.ai_overview_sources);
    }
    await store().insert('serp_results', rows.serp_results);
    await store().insert('ai_overview_sources', rows.ai_overview_sources);
  }

  const migration = (name: string) => TRACKING_MIGRATIONS().find((m) => m.name === name)!.statements;

  /** Migrations 012, 014 and 018 have done their work: the projection's rows, no serp_checks left, every reader's answers. */
  async function expectProjectionsRowsAndAnswers(): Promise<void> {
    expect(await snapshots()).toEqual(projected);
    const [left] = await store().query<{ n: string }>(
      "SELECT count() AS n FROM system.tables WHERE database = currentDatabase() AND name = 'serp_checks'",
    );
    expect(Number(left!.n)).toBe(0);
    // Not a vacuous comparison: snapshots with pages, previous pages and cited sources.
    expect(fromProjection.snapshots[0]!.results).toHaveLength(50);
    expect(fromProjection.snapshots[0]!.previousResults).toHaveLength(50);
    expect(fromProjection.snapshots[0]!.aiOverview).toHaveLength(2);
    expect(await answers()).toEqual(fromProjection);
  }

  it("answers as the tables of a row per result did, and migrations 012 and 014 (014 rerun after its last statement failed) give the projection's rows and the same answers", async () => {
    await fillEarlierTables();
    const { competitors, standings } = await answers();
    // Not a vacuous comparison: the competitor found, standings counted.
    expect(competitors[0]!.some((row) => Number(row.position) > 0)).toBe(true);
    expect(standings[1]!.domains.find(([domain]) => domain === 'rival1.example')![1].ranking).toBeGreaterThan(0);
    expect({ competitors, standings }).toEqual({ competitors: fromProjection.competitors, standings: fromProjection.standings });

    for (const statement of migration('012_serp_checks')) await store().command(statement);
    // 014 stopped before its last statement, then run again from its first; then 018 drops serp_checks.
    const snapshotsMigration = migration('014_check_snapshots');
    for (const statement of snapshotsMigration.slice(0, -1)) await store().command(statement);
    for (const statement of snapshotsMigration) await store().command(statement);
    for (const statement of migration('018_drop_serp_checks')) await store().command(statement);
    await expectProjectionsRowsAndAnswers();
  });

  it('reruns 012 and 014 from their first statement after a failure between dropping a table and making its view, which leaves neither', async () => {
    await fillEarlierTables();
    // Each migration stopped right after the DROP TABLE of a table that becomes a view, then run again from its first.
    const stopAfter = (statements: string[], dropped: string) => {
      const at = statements.findIndex((statement) => statement.includes(`DROP TABLE IF EXISTS ${dropped}`));
      expect(at).toBeGreaterThan(0);
      return statements.slice(0, at + 1);
    };
    const serpChecksMigration = migration('012_serp_checks');
    for (const statement of stopAfter(serpChecksMigration, 'serp_results')) await store().command(statement);
    for (const statement of serpChecksMigration) await store().command(statement);
    const snapshotsMigration = migration('014_check_snapshots');
    for (const statement of stopAfter(snapshotsMigration, 'ai_overview_sources')) await store().command(statement);
    for (const statement of snapshotsMigration) await store().command(statement);
    for (const statement of migration('018_drop_serp_checks')) await store().command(statement);
    await expectProjectionsRowsAndAnswers();
  });
});
