import { startTestApp, TestApp } from '../support/test-app';

describe('Notes (/api/projects/notes)', () => {
  let app: TestApp;
  let key: string;
  let projectId: string;
  beforeAll(async () => {
    app = await startTestApp();
    ({ apiKey: key } = await app.createAccount());
    projectId = (await app.request('POST', '/api/projects', { key, body: { name: 'N', domain: 'n.example' } })).body.project._id;
  });
  afterAll(async () => {
    await app.close();
  });

  it('creates a note (201 Note saved, info by default, date at 00:00 UTC), then updates it on the same date (200 Note updated, the sent color taken, an unsent one kept)', async () => {
    const created = await app.request('POST', '/api/projects/notes', {
      key,
      body: { projectId, date: '2026-02-10', text: 'Launch', color: 'success' },
    });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      success: true,
      message: 'Note saved',
      data: { _id: expect.stringMatching(/^[0-9a-f]{24}$/), projectId, date: '2026-02-10T00:00:00.000Z', text: 'Launch', color: 'success' },
    });
    const updated = await app.request('POST', '/api/projects/notes', {
      key,
      body: { projectId, date: '2026-02-10', text: 'Relaunch', color: 'danger' },
    });
    expect(updated.status).toBe(200);
    expect(updated.body).toEqual({
      success: true,
      message: 'Note updated',
      data: { ...created.body.data, text: 'Relaunch', color: 'danger' },
    });
    const recoloured = await app.request('POST', '/api/projects/notes', {
      key,
      body: { projectId, date: '2026-02-10', text: 'Relaunch, again' },
    });
    expect(recoloured.body.data).toEqual({ ...created.body.data, text: 'Relaunch, again', color: 'danger' });

    const plain = await app.request('POST', '/api/projects/notes', { key, body: { projectId, date: '2026-01-05', text: 'Earlier' } });
    expect(plain.body.data.color).toBe('info');
    const list = await app.request('GET', '/api/projects/notes', { key, query: { projectId } });
    expect(list.status).toBe(200);
    expect(list.body.data.map((n: { date: string; text: string }) => `${n.date.slice(0, 10)} ${n.text}`)).toEqual([
      '2026-01-05 Earlier',
      '2026-02-10 Relaunch, again',
    ]);
  });

  it("deletes a note and answers with the project's remaining notes", async () => {
    const a = await app.request('POST', '/api/projects/notes', { key, body: { projectId, date: '2026-03-01', text: 'A' } });
    const before = (await app.request('GET', '/api/projects/notes', { key, query: { projectId } })).body.data;
    const deleted = await app.request('DELETE', '/api/projects/notes', { key, body: { noteId: a.body.data._id } });
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({
      success: true,
      message: 'Note deleted',
      data: before.filter((n: { _id: string }) => n._id !== a.body.data._id),
    });
    expect((await app.request('DELETE', '/api/projects/notes', { key, body: { noteId: a.body.data._id } })).status).toBe(404);
  });

  it.each([
    [{ date: '2026-02-30', text: 'x' }, /date must be a real calendar date/],
    [{ date: '10/02/2026', text: 'x' }, /date must be a real calendar date/],
    [{ date: '2026-02-10' }, /text/],
    [{ date: '2026-02-10', text: '   ' }, /text should not be empty/],
    [{ date: '2026-02-10', text: 'x', color: 'purple' }, /color must be one of/],
  ])('refuses %p with 400 naming the field', async (body, message) => {
    const response = await app.request('POST', '/api/projects/notes', { key, body: { projectId, ...body } });
    expect(response.status).toBe(400);
    expect(response.body.message).toMatch(message);
  });

  it('answers 400 without or with a malformed projectId or noteId', async () => {
    expect((await app.request('GET', '/api/projects/notes', { key })).status).toBe(400);
    expect((await app.request('GET', '/api/projects/notes', { key, query: { projectId: 'x' } })).status).toBe(400);
    expect((await app.request('DELETE', '/api/projects/notes', { key, body: { noteId: 'x' } })).status).toBe(400);
  });
});
