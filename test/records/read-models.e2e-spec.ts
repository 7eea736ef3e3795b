import { ALL_PROJECTIONS } from '@rank/projector/all-projections';
import { ProjectionRunner, resetReadModels } from '@rank/projector/projection-runner';
import type { QueryParams, ReadStore } from '@rank/read-store/read-store.port';
import { startTestApp, TestApp } from '../support/test-app';

/** Every row of the analyst tables, in a stable order, for comparing two builds. */
async function dumpReadModels(app: TestApp): Promise<Record<string, unknown[]>> {
  const store = app.running.stores.readStore;
  const tables: Record<string, string> = {
    projects: 'SELECT * EXCEPT version FROM projects FINAL ORDER BY project_id',
    project_folders: 'SELECT * EXCEPT version FROM project_folders FINAL ORDER BY project_id',
    folders: 'SELECT * EXCEPT version FROM folders FINAL ORDER BY folder_id',
    keywords: 'SELECT * EXCEPT version FROM keywords FINAL ORDER BY project_id, keyword_id',
    notes: 'SELECT * EXCEPT version FROM notes FINAL ORDER BY project_id, note_id',
  };
  const dump: Record<string, unknown[]> = {};
  for (const [name, sql] of Object.entries(tables)) dump[name] = await store.query(sql);
  return dump;
}

describe("Read models of the account's records (ClickHouse, built from the event log)", () => {
  let app: TestApp;
  let runner: ProjectionRunner;
  beforeAll(async () => {
    app = await startTestApp();
    runner = app.running.app.get(ProjectionRunner);
  });
  afterAll(async () => {
    await app.close();
  });

  it('projects projects, folders, keywords and notes, so analysts can join them in SQL', async () => {
    const { accountId, apiKey: key } = await app.createAccount();
    const folder = await app.request('POST', '/api/projects/folders', { key, body: { name: 'Clients' } });
    const project = await app.request('POST', '/api/projects', {
      key,
      body: { name: 'Shop', domain: 'shop.example', folder: folder.body.folder._id },
    });
    const projectId = project.body.project._id;
    await app.request('POST', '/api/projects/keywords', {
      key,
      body: { projectId, keywords: ['a', 'b', 'c'], geoCode: 'US', langCode: 'en' },
    });
    const kw = (await app.request('GET', `/api/projects/${projectId}`, { key })).body.project.keywords;
    await app.request('DELETE', '/api/projects/keywords', { key, body: { projectId, keywordIds: [kw[0]._id] } });
    await app.request('POST', '/api/projects/notes', { key, body: { projectId, date: '2026-02-01', text: 'first', color: 'warning' } });
    await app.request('POST', '/api/projects/notes', { key, body: { projectId, date: '2026-02-01', text: 'edited' } });
    await app.request('PUT', '/api/projects/folders', { key, query: { id: folder.body.folder._id }, body: { name: 'Customers' } });
    await runner.waitUntilCaughtUp();

    const store = app.running.stores.readStore;
    const joined = await store.query(
      `SELECT p.name AS project, f.name AS folder, groupArray(k.value) AS keywords
       FROM (SELECT * FROM projects FINAL) AS p
       JOIN (SELECT * FROM project_folders FINAL) AS pf ON pf.project_id = p.project_id
       JOIN (SELECT * FROM folders FINAL) AS f ON f.folder_id = pf.folder_id
       JOIN (SELECT * FROM keywords FINAL ORDER BY value) AS k ON k.project_id = p.project_id
       WHERE p.account_id = {accountId:String}
       GROUP BY p.name, f.name`,
      { accountId },
    );
    expect(joined).toEqual([{ project: 'Shop', folder: 'Customers', keywords: ['b', 'c'] }]);
    const notes = await store.query('SELECT text, color, toString(date) AS date FROM notes FINAL WHERE project_id = {projectId:String}', {
      projectId,
    });
    expect(notes).toEqual([{ text: 'edited', color: 'warning', date: '2026-02-01' }]);
  });

  it('deletes every trace of a deleted project from both stores, and a replay does not bring it back', async () => {
    const { apiKey: key } = await app.createAccount();
    const project = await app.request('POST', '/api/projects', { key, body: { name: 'Doomed', domain: 'doomed.example' } });
    const projectId = project.body.project._id;
    await app.request('POST', '/api/projects/keywords', { key, body: { projectId, keywords: ['x', 'y'], geoCode: 'US', langCode: 'en' } });
    await app.request('POST', '/api/projects/notes', { key, body: { projectId, date: '2026-02-01', text: 'note' } });
    await runner.waitUntilCaughtUp();
    const store = app.running.stores.readStore;
    const rowsOf = async () => {
      let n = 0;
      for (const table of ['projects', 'project_folders', 'keywords', 'notes']) {
        const [row] = await store.query<{ n: string }>(
          `SELECT toString(count()) AS n FROM ${table} WHERE project_id = {projectId:String}`,
          { projectId },
        );
        n += Number(row!.n);
      }
      return n;
    };
    expect(await rowsOf()).toBeGreaterThan(0);

    expect((await app.request('DELETE', '/api/projects', { key, body: { _id: projectId } })).status).toBe(200);
    await runner.waitUntilCaughtUp();
    expect(await rowsOf()).toBe(0);
    expect(await app.running.stores.eventStore.readStream(`project-${projectId}`)).toEqual([]);

    await runner.stop();
    await resetReadModels(store, ALL_PROJECTIONS);
    runner = new ProjectionRunner(app.running.stores.eventStore, store, ALL_PROJECTIONS);
    await runner.start();
    await runner.waitUntilCaughtUp();
    expect(await rowsOf()).toBe(0);
    await runner.stop();
  });

  it('a rebuild from the first event gives identical tables', async () => {
    const { apiKey: key } = await app.createAccount();
    const folder = await app.request('POST', '/api/projects/folders', { key, body: { name: 'F' } });
    for (let i = 0; i < 3; i++) {
      const p = await app.request('POST', '/api/projects', {
        key,
        body: { name: `P${i}`, domain: `p${i}.example`, folder: folder.body.folder._id },
      });
      await app.request('POST', '/api/projects/keywords', {
        key,
        body: { projectId: p.body.project._id, keywords: [`k${i}`, 'shared'], geoCode: 'GB', langCode: 'en' },
      });
    }
    await app.request('DELETE', '/api/projects/folders', { key, query: { id: folder.body.folder._id } });
    const store = app.running.stores.readStore;
    const fresh = new ProjectionRunner(app.running.stores.eventStore, store, ALL_PROJECTIONS);
    await fresh.start();
    await fresh.waitUntilCaughtUp();
    const before = await dumpReadModels(app);
    expect(before.keywords.length).toBeGreaterThan(0);

    await fresh.stop();
    await resetReadModels(store, ALL_PROJECTIONS);
    const rebuilt = new ProjectionRunner(app.running.stores.eventStore, store, ALL_PROJECTIONS);
    await rebuilt.start();
    await rebuilt.waitUntilCaughtUp();
    await rebuilt.stop();
    expect(await dumpReadModels(app)).toEqual(before);
  });

  it('a rebuild cut off while emptying the tables is taken up again from the first event, not left empty', async () => {
    const { apiKey: key } = await app.createAccount();
    for (let i = 0; i < 2; i++) {
      const p = await app.request('POST', '/api/projects', { key, body: { name: `Cut ${i}`, domain: `cut${i}.example` } });
      await app.request('POST', '/api/projects/keywords', {
        key,
        body: { projectId: p.body.project._id, keywords: ['one', 'two'], geoCode: 'US', langCode: 'en' },
      });
    }
    const store = app.running.stores.readStore;
    const fresh = new ProjectionRunner(app.running.stores.eventStore, store, ALL_PROJECTIONS);
    await fresh.start();
    await fresh.waitUntilCaughtUp();
    const before = await dumpReadModels(app);
    await fresh.stop();

    // The process dies at the third table (a kill -9 or Ctrl-C early in `npm run projections:rebuild`).
    let truncated = 0;
    const dying: ReadStore = Object.assign(Object.create(store) as ReadStore, {
      command: async (sql: string, params?: QueryParams) => {
        if (sql.startsWith('TRUNCATE') && ++truncated === 3) throw new Error('killed');
        return store.command(sql, params);
      },
    });
    await expect(resetReadModels(dying, ALL_PROJECTIONS)).rejects.toThrow('killed');

    // Before, the checkpoint outlived the emptied tables: the next start went on from it, leaving
    // projects, keywords and accounts out of every read and of the scheduler.
    const restarted = new ProjectionRunner(app.running.stores.eventStore, store, ALL_PROJECTIONS);
    await restarted.start();
    await restarted.waitUntilCaughtUp();
    await restarted.stop();
    expect(await dumpReadModels(app)).toEqual(before);
  });
});
