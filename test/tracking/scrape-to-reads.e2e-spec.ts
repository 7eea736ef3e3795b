import { ALL_PROJECTIONS } from '@rank/projector/all-projections';
import { ProjectionRunner, resetReadModels } from '@rank/projector/projection-runner';
import { TRACKING_TABLES } from '@rank/tracking/tracking.projection';
import { CheckWorkerLifecycle } from '@rank/tracking/check/check-worker.lifecycle';
import { FakeGoogle } from '@rank/serp/fetcher/test-support/fake-google';
import { readSavedSerp } from '@rank/serp/fetcher/test-support/saved-serp';
import { startTestApp, TestApp } from '../support/test-app';
import { checkResultsOf } from '../support/seed-checks';
import { waitFor } from '@rank/platform/testing/wait-for';

/**
 * The whole path a user sees: scrapes on three days, through Chromium, the parser, the event log and
 * the projections, to every read and export. Day 1 Google shows another site's page (not ranking),
 * days 2 and 3 the eggs page where simplyrecipes.com ranks 5th.
 */
const clock = {
  current: new Date('2026-06-01T10:00:00.000Z'),
  now() {
    return this.current;
  },
};
const EGGS = readSavedSerp('fra50__persistent_browser_service__ai_overview.html');
const OTHER = readSavedSerp('zlurad__serp-parser__desktop-google.html');

describe('From POST /api/scrape/new-keywords to every read', () => {
  let google: FakeGoogle;
  let app: TestApp;
  let key: string;
  let projectId: string;
  let keywordId: string;
  let page = OTHER;
  const checkIds: string[] = [];

  const scrapeOnDay = async (day: string) => {
    clock.current = new Date(`${day}T10:00:00.000Z`);
    const before = (await checkResultsOf(app.running.stores.eventStore, projectId)).length;
    expect((await app.request('POST', '/api/scrape/new-keywords', { key, body: { projectId, keywordIds: [keywordId] } })).status).toBe(200);
    const events = await waitFor(
      () => checkResultsOf(app.running.stores.eventStore, projectId),
      (e) => e.length > before,
    );
    checkIds.push((events[events.length - 1]!.data as { checkId: string }).checkId);
  };

  beforeAll(async () => {
    google = await FakeGoogle.start();
    google.reset(() => ({ kind: 'page', html: page }));
    app = await startTestApp({ clock, env: { ROLES: 'api,projections,scraper', GOOGLE_BASE_URL: google.baseUrl } });
    ({ apiKey: key } = await app.createAccount({ balance: 10 }));
    projectId = (await app.request('POST', '/api/projects', { key, body: { name: 'Eggs', domain: 'simplyrecipes.com', shared: true } }))
      .body.project._id;
    const added = await app.request('POST', '/api/projects/keywords', {
      key,
      body: { projectId, keywords: ['how to boil eggs'], geoCode: 'US', langCode: 'en' },
    });
    keywordId = added.body.project.keywords[0];
    await scrapeOnDay('2026-06-01');
    page = EGGS;
    await scrapeOnDay('2026-06-02');
    await scrapeOnDay('2026-06-03');
    await app.running.app.get(CheckWorkerLifecycle).current!.idle();
    await app.running.app.get(ProjectionRunner).waitUntilCaughtUp();
  }, 60_000);
  afterAll(async () => {
    await app.close();
    await google.close();
  });

  it("keyword-updates: one update a day with the project's position", async () => {
    const response = await app.request('GET', '/api/projects/keyword-updates', { key, query: { projectId } });
    expect(response.status).toBe(200);
    const entry = response.body.data[keywordId];
    expect(entry.keyword).toMatchObject({ _id: keywordId, value: 'how to boil eggs', geoCode: 'US', langCode: 'en' });
    expect(
      entry.updates.map((u: { _id: string; status: string; position: { position: number } }) => [u._id, u.status, u.position.position]),
    ).toEqual([
      [checkIds[0], 'success', 0],
      [checkIds[1], 'success', 5],
      [checkIds[2], 'success', 5],
    ]);
    expect(entry.updates[1].position.url).toBe('https://www.simplyrecipes.com/recipes/how_to_make_perfect_hard_boiled_eggs/');
    expect(entry.updates[1].aiSerpId).toBe(checkIds[1]);
  });

  it('position-history: movement against the previous check, dropped domains, the AI Overview', async () => {
    const second = await app.request('GET', '/api/projects/position-history', { key, query: { keywordUpdateId: checkIds[1] } });
    expect(second.status).toBe(200);
    expect(second.body.data.hasPreviousData).toBe(true);
    expect(second.body.data.resultList[0]).toMatchObject({
      position: 1,
      domain: 'recipetineats.com',
      previousPosition: null,
      movement: { type: 'new', value: null },
    });
    expect(second.body.data.droppedDomains.map((d: { domain: string }) => d.domain)).toContain('google.com');
    expect(second.body.data.aiContainsOurDomain).toBe(false);
    expect(second.body.data.aiOverviewResults).toHaveLength(7);

    const third = await app.request('GET', '/api/projects/position-history', { key, query: { keywordUpdateId: checkIds[2] } });
    expect(
      third.body.data.resultList.every(
        (r: { movement: { type: string; value: number } }) => r.movement.type === 'same' && r.movement.value === 0,
      ),
    ).toBe(true);
    expect(third.body.data.droppedDomains).toEqual([]);
  });

  it("competitor-positions: the competitor's position per day, 0 when absent", async () => {
    const response = await app.request('GET', '/api/projects/competitor-positions', {
      key,
      query: { projectId, competitorDomain: 'https://www.RecipeTinEats.com/' },
    });
    expect(response.status).toBe(200);
    expect(response.body.keywordHistory[keywordId].updates.map((u: { position: { position: number } }) => u.position.position)).toEqual([
      0, 1, 1,
    ]);
  });

  it('pages: the ranking URL with its keyword', async () => {
    const response = await app.request('GET', '/api/projects/pages', { key, query: { projectId } });
    expect(response.status).toBe(200);
    expect(response.body.data).toHaveLength(1);
    expect(response.body.data[0]).toMatchObject({
      url: 'https://www.simplyrecipes.com/recipes/how_to_make_perfect_hard_boiled_eggs/',
      path: '/recipes/how_to_make_perfect_hard_boiled_eggs/',
      keywordCount: 1,
      avgPosition: 5,
      bestPosition: 5,
    });
  });

  it('exports: the CSV day columns newest first, and the Markdown report, publicly for a shared project', async () => {
    const csv = await app.request('GET', '/api/projects/export', { query: { projectId } });
    expect(csv.status).toBe(200);
    const [header, row] = csv.text.replace(/^\uFEFF/, '').split(/\r?\n/);
    expect(header).toBe('Keyword;SERP;Volume;URL;Change;2026-06-03;2026-06-02;2026-06-01');
    expect(row).toBe('how to boil eggs;5;;https://www.simplyrecipes.com/recipes/how_to_make_perfect_hard_boiled_eggs/;0;5;5;0');
    const report = await app.request('GET', '/api/projects/export-agent', { query: { projectId } });
    expect(report.status).toBe(200);
    expect(report.headers.get('content-type')).toMatch(/text\/markdown/);
    expect(report.text).toContain('simplyrecipes.com');
  });

  it('a rebuild of the read models from the log gives identical ranking tables', async () => {
    const store = app.running.stores.readStore;
    const dump = async () => {
      const out: Record<string, unknown[]> = {};
      for (const table of TRACKING_TABLES) out[table] = await store.query(`SELECT * EXCEPT version FROM ${table} FINAL ORDER BY ALL`);
      return out;
    };
    const before = await dump();
    // The real pages' result lists: one check_snapshots row per check, its results as arrays.
    const listed = (before.check_snapshots as { positions: number[] }[]).reduce((sum, row) => sum + row.positions.length, 0);
    expect(listed).toBeGreaterThan(20);
    const runner = app.running.app.get(ProjectionRunner);
    await runner.stop();
    await resetReadModels(store, ALL_PROJECTIONS);
    const rebuilt = new ProjectionRunner(app.running.stores.eventStore, store, ALL_PROJECTIONS);
    await rebuilt.start();
    await rebuilt.waitUntilCaughtUp();
    await rebuilt.stop();
    expect(await dump()).toEqual(before);
  });
});
