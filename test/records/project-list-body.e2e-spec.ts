import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WorkspaceRepository } from '@rank/projects/workspace.repository';
import { toProjectView } from '../../apps/api/src/projects/project.view';
import { startTestApp, TestApp } from '../support/test-app';

/**
 * GET /api/projects renders its body once per list of projects, and SQLite stream revisions are
 * remembered while no connection has written. Two replicas share one event store: B caches its
 * answer, A changes the projects and then revokes the key, and B's very next answer shows each.
 */
describe('GET /api/projects, rendered once per change', () => {
  let dataDir: string;
  let replicaA: TestApp;
  let replicaB: TestApp;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'rank-tracker-project-list-'));
    replicaA = await startTestApp({ dataDir });
    replicaB = await startTestApp({ dataDir });
  });
  afterAll(async () => {
    await replicaB?.close();
    await replicaA?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("answers byte for byte as before, and another replica's changes and revocation on the very next request", async () => {
    const { accountId, apiKey } = await replicaA.createAccount();
    const extra = await replicaA.request('POST', '/api/user/api-keys', { key: apiKey, body: { name: 'lister' } });
    const listKey: string = extra.body.key;
    const create = async (name: string) => {
      const response = await replicaA.request('POST', '/api/projects', {
        key: apiKey,
        body: { name, domain: `${name.toLowerCase()}.example` },
      });
      expect(response.status).toBe(201);
      return response.body.project._id as string;
    };
    const first = await create('First');
    await create('Second');
    const list = async () => {
      const response = await replicaB.request('GET', '/api/projects', { key: listKey });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
      return response;
    };
    // The reference: the controller's answer as it was, an object serialized by JSON.stringify.
    const previousAnswer = async () => {
      const workspace = await replicaB.running.app.get(WorkspaceRepository).load(accountId);
      return JSON.stringify({ success: true, projects: workspace.projects.map(toProjectView) });
    };

    const before = await list();
    expect(before.body.projects.map((p: { name: string }) => p.name)).toEqual(['First', 'Second']);
    expect(before.text).toBe(await previousAnswer());
    expect((await list()).text).toBe(before.text);

    const renamed = await replicaA.request('PUT', '/api/projects', {
      key: apiKey,
      body: { _id: first, name: 'Renamed', domain: 'first.example' },
    });
    expect(renamed.status).toBe(200);
    const afterRename = await list();
    expect(afterRename.body.projects.map((p: { name: string }) => p.name)).toEqual(['Renamed', 'Second']);
    expect(afterRename.text).toBe(await previousAnswer());

    await create('Third');
    expect((await list()).body.projects.map((p: { name: string }) => p.name)).toEqual(['Renamed', 'Second', 'Third']);
    expect((await replicaA.request('DELETE', '/api/projects', { key: apiKey, body: { _id: first } })).status).toBe(200);
    const afterDelete = await list();
    expect(afterDelete.body.projects.map((p: { name: string }) => p.name)).toEqual(['Second', 'Third']);
    expect(afterDelete.text).toBe(await previousAnswer());

    const revoked = await replicaA.request('DELETE', '/api/user/api-keys', { key: apiKey, body: { id: extra.body.apiKey._id } });
    expect(revoked.status).toBe(200);
    const refused = await replicaB.request('GET', '/api/projects', { key: listKey });
    expect(refused.status).toBe(401);
    expect(refused.body.message).toMatch(/revoked/);
  });
});
