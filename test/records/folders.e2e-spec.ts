import { startTestApp, TestApp } from '../support/test-app';

describe('Folders (/api/projects/folders)', () => {
  let app: TestApp;
  let key: string;
  beforeAll(async () => {
    app = await startTestApp();
    ({ apiKey: key } = await app.createAccount());
  });
  afterAll(async () => {
    await app.close();
  });

  it('creates folders in position order, lists them, renames one', async () => {
    const a = await app.request('POST', '/api/projects/folders', { key, body: { name: ' Clients ' } });
    expect(a.status).toBe(201);
    expect(a.body).toEqual({
      success: true,
      message: 'Folder created',
      folder: { _id: expect.stringMatching(/^[0-9a-f]{24}$/), name: 'Clients', position: 0 },
    });
    const b = await app.request('POST', '/api/projects/folders', { key, body: { name: 'Internal' } });
    expect(b.body.folder.position).toBe(1);

    const renamed = await app.request('PUT', '/api/projects/folders', {
      key,
      query: { id: a.body.folder._id },
      body: { name: 'Customers' },
    });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toEqual({ success: true, message: 'Folder updated', folder: { ...a.body.folder, name: 'Customers' } });

    const list = await app.request('GET', '/api/projects/folders', { key });
    expect(list.body).toEqual({ success: true, folders: [{ ...a.body.folder, name: 'Customers' }, b.body.folder] });
  });

  it('refuses a name that differs only in case with 409, on create and on rename', async () => {
    await app.request('POST', '/api/projects/folders', { key, body: { name: 'Unique' } });
    const dup = await app.request('POST', '/api/projects/folders', { key, body: { name: 'UNIQUE' } });
    expect(dup.status).toBe(409);
    expect(dup.body.message).toBe('Folder with this name already exists');
    const other = await app.request('POST', '/api/projects/folders', { key, body: { name: 'Other' } });
    const rename = await app.request('PUT', '/api/projects/folders', {
      key,
      query: { id: other.body.folder._id },
      body: { name: 'unique' },
    });
    expect(rename.status).toBe(409);
    expect(rename.body.message).toBe('Folder with this name already exists');
  });

  it('takes a name typed composed or decomposed as one name, and refuses a name nobody can see', async () => {
    // Before: "été" as é and as e + U+0301 made two folders of the same name; "\u200b" made one named nothing.
    expect((await app.request('POST', '/api/projects/folders', { key, body: { name: '\u00e9t\u00e9' } })).status).toBe(201);
    const decomposed = await app.request('POST', '/api/projects/folders', { key, body: { name: 'E\u0301TE\u0301' } });
    expect(decomposed.status).toBe(409);
    const invisible = await app.request('POST', '/api/projects/folders', { key, body: { name: '\u200b\u2060' } });
    expect(invisible.status).toBe(400);
    expect(invisible.body.message).toBe('name should not be empty');
    const listed = (await app.request('GET', '/api/projects/folders', { key })).body.folders.map((f: { name: string }) => f.name);
    expect(listed.filter((name: string) => name.normalize('NFD') === 'e\u0301te\u0301')).toEqual(['\u00e9t\u00e9']);
  });

  it('lets two accounts use the same folder name', async () => {
    const other = await app.createAccount();
    await app.request('POST', '/api/projects/folders', { key, body: { name: 'Shared name' } });
    expect((await app.request('POST', '/api/projects/folders', { key: other.apiKey, body: { name: 'shared NAME' } })).status).toBe(201);
  });

  it('deletes a folder, unassigning its projects, which remain; answers with the refreshed lists', async () => {
    const folder = await app.request('POST', '/api/projects/folders', { key, body: { name: 'To delete' } });
    const fid = folder.body.folder._id;
    const p1 = await app.request('POST', '/api/projects', { key, body: { name: 'In folder', domain: 'in.example', folder: fid } });
    expect(p1.body.project.folder).toBe(fid);

    const deleted = await app.request('DELETE', '/api/projects/folders', { key, query: { id: fid } });
    expect(deleted.status).toBe(200);
    expect(deleted.body.success).toBe(true);
    expect(deleted.body.message).toBe('Folder deleted');
    expect(deleted.body.folders.some((f: { _id: string }) => f._id === fid)).toBe(false);
    expect(deleted.body.projects.find((p: { _id: string }) => p._id === p1.body.project._id).folder).toBeNull();
    expect((await app.request('GET', `/api/projects/${p1.body.project._id}`, { key })).body.project.folder).toBeNull();
  });

  it.each([
    ['POST', {}, undefined, 400, /name/],
    ['POST', { name: 'x'.repeat(101) }, undefined, 400, /name must be shorter than or equal to 100 characters/],
    ['PUT', { name: 'x' }, undefined, 400, /id is required/],
    ['PUT', { name: 'x' }, 'zz', 400, /id must be a 24-character hex id/],
    ['PUT', { name: 'x' }, 'f'.repeat(24), 404, /Folder not found/],
    ['DELETE', undefined, 'f'.repeat(24), 404, /Folder not found/],
    ['DELETE', undefined, undefined, 400, /id is required/],
  ])('%s with body %p and id %p gives %i', async (method, body, id, status, message) => {
    const response = await app.request(method, '/api/projects/folders', { key, body, query: { id } });
    expect(response.status).toBe(status);
    expect(response.body.message).toMatch(message);
  });

  it("answers 404 for another account's folder", async () => {
    const other = await app.createAccount();
    const folder = await app.request('POST', '/api/projects/folders', { key: other.apiKey, body: { name: 'Theirs' } });
    expect((await app.request('DELETE', '/api/projects/folders', { key, query: { id: folder.body.folder._id } })).status).toBe(404);
    expect(
      (await app.request('POST', '/api/projects', { key, body: { name: 'p', domain: 'p.example', folder: folder.body.folder._id } }))
        .status,
    ).toBe(404);
  });
});
