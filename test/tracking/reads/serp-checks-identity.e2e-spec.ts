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
 * Migration 012 stores a check's organic results as one serp_checks row of arrays, and `serp_results`
 * became a view that unfolds them. This proves that the readers of serp_results (competitor positions,
 * the report's domain standings) answer exactly as they did from the previous table of a row per
 * result, and that every reader of results, position-history too, answers the same from the rows the
 * migration makes from the previous table as from the rows the projection writes. The previous table's
 * definition comes from migration 004 and its rows from the previous projection's mapping, kept below.
 * (position-history reads serp_checks itself, so it has no answer from the previous table alone; its
 * answers against its previous reader's queries are in position-history-identity.e2e-spec.ts.)
 */
const TRACKING_MIGRATIONS = () => loadMigrationsFromDir(repositoryPath('libs', 'tracking', 'migrations'));

type Completed = Extract<CheckEvent, { type: 'CheckCompleted' }>['data'];

/** The previous tracking projection's serp_results rows of one CheckCompleted: a row per organic result. */
function previousResultRows(data: Completed, version: number) {
  return data.results.map((r) => ({
    project_id: data.projectId,
    keyword_id: data.keywordId,
    check_id: data.checkId,
    checked_at: Date.parse(data.completedAt),
    position: r.position,
    url: r.url,
    title: r.title,
    domain: r.domain,
    version,
  }));
}

const DAY_MS = 86_400_000;
const COMPETITORS = ['rival1.example', 'rival2.example', 'filler7.example', 'nowhere.example'];

describe('serp_checks (migration 012): the readers of serp_results answer as from a row per result', () => {
  let app: TestApp;
  let projectId: string;
  let keywordIds: string[];
  let checkIds: string[];
  /** serp_checks as the projection wrote it, versions folded (a replayed check's rows are one). */
  let projected: unknown[];
  /** Every reader's answers with the projection's rows. */
  let fromProjection: Awaited<ReturnType<typeof answers>>;

  const store = () => app.running.stores.readStore;
  const serpChecks = () => store().query('SELECT * FROM serp_checks FINAL ORDER BY ALL');

  /** What every reader of serp_results answers for the seeded checks. */
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
      const standing = await nest.get(RankingHistoryReader).standingsOn(projectId, keywordIds, day, COMPETITORS);
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
    projected = await serpChecks();
    fromProjection = await answers();
  }, 60_000);
  afterAll(() => app.close());

  it('the projection writes a row per successful check with results, whose view lists every result', async () => {
    // 8 daily + 1 + the replayed one + 2 short + 1 of 'failing' (the empty page and the failure have none).
    expect(projected).toHaveLength(13);
    const [row] = await store().query<{ n: string }>('SELECT count() AS n FROM serp_results WHERE project_id = {projectId:String}', {
      projectId,
    });
    expect(Number(row!.n)).toBe(12 * 50 + 3 + 1);
  });

  it('answers as the previous table of a row per result did, filled by the previous projection', async () => {
    const [previousTable] = TRACKING_MIGRATIONS()
      .find((m) => m.name === '004_tracking')!
      .statements.filter((statement) => statement.includes('CREATE TABLE IF NOT EXISTS serp_results'));
    expect(previousTable).toBeDefined();
    await store().command('DROP VIEW serp_results');
    await store().command(previousTable!);
    await store().command('TRUNCATE TABLE serp_checks');
    const rows = [];
    for (const event of await checkResultsOf(app.running.stores.eventStore, projectId)) {
      if (event.type === 'CheckCompleted') rows.push(...previousResultRows(event.data as Completed, event.position));
    }
    await store().insert('serp_results', rows);
    const { competitors, standings } = await answers();
    // Not a vacuous comparison: the competitor found, standings counted.
    expect(competitors[0]!.some((row) => Number(row.position) > 0)).toBe(true);
    expect(standings[1]!.domains.find(([domain]) => domain === 'rival1.example')![1].ranking).toBeGreaterThan(0);
    expect({ competitors, standings }).toEqual({ competitors: fromProjection.competitors, standings: fromProjection.standings });
  });

  it("migration 012, run twice over the previous table, gives the projection's rows and the same answers", async () => {
    const migration = TRACKING_MIGRATIONS().find((m) => m.name === '012_serp_checks')!;
    for (let run = 0; run < 2; run++) for (const statement of migration.statements) await store().command(statement);
    expect(await serpChecks()).toEqual(projected);
    // Not a vacuous comparison: snapshots with pages and previous pages.
    expect(fromProjection.snapshots[0]!.results).toHaveLength(50);
    expect(fromProjection.snapshots[0]!.previousResults).toHaveLength(50);
    expect(await answers()).toEqual(fromProjection);
  });
});
