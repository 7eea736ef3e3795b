import { ALL_PROJECTIONS } from '@rank/projector/all-projections';
import { ProjectionRunner, resetReadModels } from '@rank/projector/projection-runner';
import { loadMigrationsFromDir } from '@rank/read-store/migrations';
import { repositoryPath } from '@rank/platform/repository-path';
import { PICKS_FIRST } from '@rank/tracking/reads/shared/day-checks';
import type { SeededCheck } from '../../support/seed-checks';
import type { TestApp } from '../../support/test-app';
import { createProject, seed, serp, startReadsApp } from './reads-fixture';

/**
 * keyword_day_checks and ranking_pages (migration 011) and keyword_day_picks (013) are filled by
 * materialized views on keyword_updates. What the reads rely on: the picking order (PICKS_FIRST) gives
 * per keyword and day the daily rule's check (latest success, else latest failure), keyword_day_picks
 * folds to the same check, a replayed check is picked once, a deleted project leaves no rows, and a
 * rebuild from the log and the migrations' backfills (run twice) give the same picks as the views.
 */
const DAY_PICKS = `
  SELECT keyword_id, toString(day) AS day, check_id AS checkId, succeeded, position, toString(page_key) AS pageKey
  FROM keyword_day_checks WHERE project_id = {projectId:String}
  ${PICKS_FIRST}
  LIMIT 1 BY keyword_id, day`;

/** The same picks as keyword_day_picks (migration 013) folds them: one row per keyword and day under FINAL. */
const FOLDED_PICKS = `
  SELECT keyword_id, toString(day) AS day, pick.3 AS checkId, pick.1 AS succeeded, pick.4 AS position, toString(pick.5) AS pageKey
  FROM keyword_day_picks FINAL WHERE project_id = {projectId:String}
  ORDER BY keyword_id DESC, day DESC`;

/** Every stored row of the project's checks, duplicates folded: what the backfill and a rebuild must reproduce. */
const ALL_ROWS = `SELECT DISTINCT * FROM keyword_day_checks WHERE project_id = {projectId:String} ORDER BY ALL`;

const PAGES = `SELECT DISTINCT toString(page_key) AS pageKey, url, title, domain FROM ranking_pages
  WHERE project_id = {projectId:String} ORDER BY url, title`;

interface DayPick {
  keyword_id: string;
  day: string;
  checkId: string;
  succeeded: number;
  position: number;
  pageKey: string;
}

const at = (day: string, time: string) => `${day}T${time}.000Z`;

describe('keyword_day_checks, keyword_day_picks and ranking_pages, filled from keyword_updates', () => {
  let app: TestApp;
  let key: string;
  let projectId: string;
  let otherProjectId: string;
  let ids: string[];
  /** The runner projecting now: the app's, then the rebuild's. */
  let runner: ProjectionRunner;

  beforeAll(async () => {
    app = await startReadsApp();
    key = (await app.createAccount()).apiKey;
    const project = await createProject(app, key, { domain: 'ours.com' }, [{ keywords: ['red shoes'], geoCode: 'US', langCode: 'en' }]);
    const other = await createProject(app, key, { domain: 'theirs.com' }, [{ keywords: ['blue shoes'], geoCode: 'US', langCode: 'en' }]);
    projectId = project.projectId;
    otherProjectId = other.projectId;
    const keywordId = project.ids['red shoes']!;
    const ranked = (when: string, position: number, page: string): SeededCheck => ({
      projectId,
      keywordId,
      at: when,
      projectDomains: ['ours.com'],
      urls: serp({ [position]: `https://ours.com/${page}` }, 10),
    });
    const failed = (when: string): SeededCheck => ({ projectId, keywordId, at: when, failedReason: 'Blocked by Google (captcha)' });
    const checks: SeededCheck[] = [
      // 0-1: failed, then succeeded later the same day: the success.
      failed(at('2026-03-01', '08:00:00')),
      ranked(at('2026-03-01', '10:00:00'), 3, 'a'),
      // 2-3: succeeded, then failed later the same day: still the success.
      ranked(at('2026-03-02', '08:00:00'), 4, 'b'),
      failed(at('2026-03-02', '10:00:00')),
      // 4-5: two failures: the later one.
      failed(at('2026-03-03', '08:00:00')),
      failed(at('2026-03-03', '10:00:00')),
      // 6-7: two successes: the later one, on another page.
      ranked(at('2026-03-04', '08:00:00'), 5, 'a'),
      ranked(at('2026-03-04', '23:59:59'), 6, 'c'),
      // 8: one success, delivered twice below.
      ranked(at('2026-03-05', '00:00:00'), 7, 'a'),
      { projectId: otherProjectId, keywordId: other.ids['blue shoes']!, at: at('2026-03-05', '09:00:00'), urls: serp({}, 10) },
    ];
    ids = await seed(app, checks);
    await seed(app, [{ ...checks[8]!, checkId: ids[8]! }]);
    runner = app.running.app.get(ProjectionRunner);
  }, 60_000);
  afterAll(async () => {
    if (runner !== app.running.app.get(ProjectionRunner)) await runner.stop();
    await app.close();
  });

  const dayPicks = (id = projectId) => app.running.stores.readStore.query<DayPick>(DAY_PICKS, { projectId: id });
  const pages = (id = projectId) => app.running.stores.readStore.query(PAGES, { projectId: id });
  const allRows = () => app.running.stores.readStore.query(ALL_ROWS, { projectId });
  const foldedPicks = (id = projectId) => app.running.stores.readStore.query<DayPick>(FOLDED_PICKS, { projectId: id });

  it('picks per day the latest success, else the latest failure; a replayed check is one pick', async () => {
    const picks = await dayPicks();
    expect([...picks].reverse().map((p) => [p.day, p.checkId, p.succeeded, p.position])).toEqual([
      ['2026-03-01', ids[1], 1, 3],
      ['2026-03-02', ids[2], 1, 4],
      ['2026-03-03', ids[5], 0, 0],
      ['2026-03-04', ids[7], 1, 6],
      ['2026-03-05', ids[8], 1, 7],
    ]);
    // keyword_day_picks holds the same picks, folded by the engine (the replayed check twice, as one).
    expect(await foldedPicks()).toEqual(picks);
    // The pages of successful checks, each once.
    expect((await pages()).map((p: any) => p.url)).toEqual(['https://ours.com/a', 'https://ours.com/b', 'https://ours.com/c']);
    const byUrl = new Map((await pages()).map((p: any) => [p.url, p.pageKey]));
    expect(picks.find((p) => p.day === '2026-03-04')!.pageKey).toBe(byUrl.get('https://ours.com/c'));
  });

  it("the migration's backfill, run twice over the stored checks, gives the views' rows", async () => {
    const store = app.running.stores.readStore;
    const viewsMade = { rows: await allRows(), pages: await pages() };
    expect(viewsMade.rows).toHaveLength(9);
    const migration = loadMigrationsFromDir(repositoryPath('libs', 'tracking', 'migrations')).find(
      (m) => m.name === '011_keyword_day_checks',
    )!;
    await store.command('TRUNCATE TABLE keyword_day_checks');
    await store.command('TRUNCATE TABLE ranking_pages');
    for (let run = 0; run < 2; run++) for (const statement of migration.statements) await store.command(statement);
    expect(await allRows()).toEqual(viewsMade.rows);
    expect(await pages()).toEqual(viewsMade.pages);
  });

  it("keyword_day_picks' backfill, run twice over the stored checks, gives the view's picks", async () => {
    const store = app.running.stores.readStore;
    const viewMade = await foldedPicks();
    expect(viewMade).toHaveLength(5);
    const migration = loadMigrationsFromDir(repositoryPath('libs', 'tracking', 'migrations')).find(
      (m) => m.name === '013_keyword_day_picks',
    )!;
    await store.command('TRUNCATE TABLE keyword_day_picks');
    expect(await foldedPicks()).toEqual([]);
    for (let run = 0; run < 2; run++) for (const statement of migration.statements) await store.command(statement);
    expect(await foldedPicks()).toEqual(viewMade);
  });

  it('a rebuild from the log gives the same rows, picks and pages', async () => {
    const store = app.running.stores.readStore;
    const before = { rows: await allRows(), pages: await pages(), picks: await foldedPicks() };
    await runner.stop();
    await resetReadModels(store, ALL_PROJECTIONS);
    expect(await store.query('SELECT count() AS n FROM keyword_day_checks')).toEqual([{ n: '0' }]);
    // Kept running: the next test's deletion is projected by it.
    runner = new ProjectionRunner(app.running.stores.eventStore, store, ALL_PROJECTIONS);
    await runner.start();
    await runner.waitUntilCaughtUp();
    expect(await allRows()).toEqual(before.rows);
    expect(await pages()).toEqual(before.pages);
    expect(await foldedPicks()).toEqual(before.picks);
  });

  it("deleting a project removes its picks and pages, not another project's", async () => {
    expect(await dayPicks(otherProjectId)).toHaveLength(1);
    const deleted = await app.request('DELETE', '/api/projects', { key, body: { _id: projectId } });
    expect(deleted.status).toBe(200);
    await runner.waitUntilCaughtUp();
    expect(await dayPicks()).toEqual([]);
    expect(await foldedPicks()).toEqual([]);
    expect(await pages()).toEqual([]);
    const store = app.running.stores.readStore;
    const weekRows = (id: string) => store.query('SELECT week FROM keyword_week_picks WHERE project_id = {id:String}', { id });
    expect(await weekRows(projectId)).toEqual([]);
    expect(await weekRows(otherProjectId)).toHaveLength(1);
    expect(await dayPicks(otherProjectId)).toHaveLength(1);
    expect(await foldedPicks(otherProjectId)).toHaveLength(1);
    expect(await pages(otherProjectId)).toHaveLength(1);
  });
});
