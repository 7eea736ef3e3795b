import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startTestApp, TestApp } from '../support/test-app';

describe('API keys (GET/POST/DELETE /api/user/api-keys)', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(async () => {
    await app.close();
  });

  it('creates a key, shows its secret once, lists it without the secret, and the new key works', async () => {
    const { apiKey } = await app.createAccount();
    const created = await app.request('POST', '/api/user/api-keys', { key: apiKey, body: { name: 'reporting' } });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      success: true,
      key: expect.any(String),
      apiKey: {
        _id: expect.stringMatching(/^[0-9a-f]{24}$/),
        name: 'reporting',
        keyPrefix: `${created.body.key.slice(0, 4)}••••••••`,
        createdAt: expect.any(String),
      },
    });

    const listed = await app.request('GET', '/api/user/api-keys', { key: created.body.key });
    expect(listed.status).toBe(200);
    expect(listed.body.success).toBe(true);
    expect(listed.body.apiKeys.map((k: { name: string }) => k.name)).toEqual(['default', 'reporting']);
    for (const k of listed.body.apiKeys) {
      expect(Object.keys(k).sort()).toEqual(['_id', 'createdAt', 'keyPrefix', 'lastUsedAt', 'name']);
    }
    expect(listed.text).not.toContain(created.body.key);
  });

  it('stores keys only as hashes: the secret is nowhere in the event store file', async () => {
    const { apiKey } = await app.createAccount();
    const created = await app.request('POST', '/api/user/api-keys', { key: apiKey, body: { name: 'secret check' } });
    const secretPart = (created.body.key as string).split('_')[0]!;
    const files = ['events.sqlite', 'events.sqlite-wal'].map((f) => join(app.dataDir, f));
    const bytes = files
      .map((f) => {
        try {
          return readFileSync(f).toString('latin1');
        } catch {
          return '';
        }
      })
      .join('');
    expect(bytes.length).toBeGreaterThan(0);
    expect(bytes).not.toContain(secretPart);
    expect(bytes).not.toContain(apiKey.split('_')[0]);
  });

  it.each([
    [{}, /name/],
    [{ name: '' }, /name should not be empty/],
    [{ name: '   ' }, /name should not be empty/],
    [{ name: 42 }, /name must be a string/],
    [{ name: 'x'.repeat(101) }, /name must be shorter than or equal to 100 characters/],
  ])('refuses the body %p with 400 naming the field', async (body, message) => {
    const { apiKey } = await app.createAccount();
    const response = await app.request('POST', '/api/user/api-keys', { key: apiKey, body });
    expect(response.status).toBe(400);
    expect(response.body.message).toMatch(message);
  });

  it('accepts a name of exactly 100 characters', async () => {
    const { apiKey } = await app.createAccount();
    const response = await app.request('POST', '/api/user/api-keys', { key: apiKey, body: { name: 'x'.repeat(100) } });
    expect(response.status).toBe(201);
    // Characters, not UTF-16 units: 100 emoji are 100 characters
    const emoji = await app.request('POST', '/api/user/api-keys', { key: apiKey, body: { name: '🔑'.repeat(100) } });
    expect(emoji.status).toBe(201);
    expect(emoji.body.apiKey.name).toBe('🔑'.repeat(100));
    const over = await app.request('POST', '/api/user/api-keys', { key: apiKey, body: { name: '🔑'.repeat(101) } });
    expect(over.status).toBe(400);
    expect(over.body.message).toMatch(/name must be shorter than or equal to 100 characters/);
  });

  it('allows at most 5 active keys, and a revoked key frees its place', async () => {
    const { apiKey } = await app.createAccount();
    const ids: string[] = [];
    for (let i = 2; i <= 5; i++) {
      const r = await app.request('POST', '/api/user/api-keys', { key: apiKey, body: { name: `k${i}` } });
      expect(r.status).toBe(201);
      ids.push(r.body.apiKey._id);
    }
    const sixth = await app.request('POST', '/api/user/api-keys', { key: apiKey, body: { name: 'k6' } });
    expect(sixth.status).toBe(400);
    expect(sixth.body.message).toMatch(/at most 5 active API keys/);

    expect((await app.request('DELETE', '/api/user/api-keys', { key: apiKey, body: { id: ids[0] } })).status).toBe(200);
    expect((await app.request('POST', '/api/user/api-keys', { key: apiKey, body: { name: 'k6' } })).status).toBe(201);
  });

  it('revokes by body or by query; the revoked key is not listed and fails on the very next request', async () => {
    const { apiKey } = await app.createAccount();
    const a = await app.request('POST', '/api/user/api-keys', { key: apiKey, body: { name: 'a' } });
    const b = await app.request('POST', '/api/user/api-keys', { key: apiKey, body: { name: 'b' } });

    const byBody = await app.request('DELETE', '/api/user/api-keys', { key: apiKey, body: { id: a.body.apiKey._id } });
    expect(byBody.status).toBe(200);
    expect(byBody.body).toEqual({ success: true });
    const afterRevoke = await app.request('GET', '/api/user/api-keys', { key: a.body.key });
    expect(afterRevoke.status).toBe(401);
    expect(afterRevoke.body.message).toMatch(/revoked/);

    const byQuery = await app.request('DELETE', '/api/user/api-keys', { key: apiKey, query: { id: b.body.apiKey._id } });
    expect(byQuery.status).toBe(200);
    expect((await app.request('GET', '/api/user/api-keys', { key: b.body.key })).status).toBe(401);

    const listed = await app.request('GET', '/api/user/api-keys', { key: apiKey });
    expect(listed.body.apiKeys.map((k: { name: string }) => k.name)).toEqual(['default']);
  });

  it('refuses two different ids, one in the body and one in the query, and revokes neither; the same id twice is one', async () => {
    // Before, the body's id won without a word: a caller meaning the query's revoked another key.
    const { apiKey } = await app.createAccount();
    const a = await app.request('POST', '/api/user/api-keys', { key: apiKey, body: { name: 'a' } });
    const b = await app.request('POST', '/api/user/api-keys', { key: apiKey, body: { name: 'b' } });
    const both = await app.request('DELETE', '/api/user/api-keys', {
      key: apiKey,
      query: { id: a.body.apiKey._id },
      body: { id: b.body.apiKey._id },
    });
    expect({ status: both.status, body: both.body }).toEqual({
      status: 400,
      body: { success: false, message: 'id is sent in both the body and the query, with different values: send it once' },
    });
    expect((await app.request('GET', '/api/user/api-keys', { key: a.body.key })).status).toBe(200);
    expect((await app.request('GET', '/api/user/api-keys', { key: b.body.key })).status).toBe(200);

    const same = await app.request('DELETE', '/api/user/api-keys', {
      key: apiKey,
      query: { id: a.body.apiKey._id },
      body: { id: a.body.apiKey._id },
    });
    expect(same.status).toBe(200);
    expect((await app.request('GET', '/api/user/api-keys', { key: a.body.key })).status).toBe(401);
    // A repeated ?id= is one id only when its copies agree: before, the body's different id won over it.
    const c = await app.request('POST', '/api/user/api-keys', { key: apiKey, body: { name: 'c' } });
    const cId = c.body.apiKey._id;
    const repeated = await app.request('DELETE', `/api/user/api-keys?id=${cId}&id=${cId}`, {
      key: apiKey,
      body: { id: b.body.apiKey._id },
    });
    expect({ status: repeated.status, message: repeated.body.message }).toEqual({
      status: 400,
      message: 'id is sent in both the body and the query, with different values: send it once',
    });
    const several = await app.request('DELETE', `/api/user/api-keys?id=${cId}&id=${b.body.apiKey._id}`, { key: apiKey });
    expect({ status: several.status, message: several.body.message }).toEqual({
      status: 400,
      message: 'id must be a single value: the query names several',
    });
    expect((await app.request('GET', '/api/user/api-keys', { key: b.body.key })).status).toBe(200);
    expect((await app.request('GET', '/api/user/api-keys', { key: c.body.key })).status).toBe(200);
    // An empty ?id= (or an empty body id) names no key: the other one's is revoked.
    const empty = await app.request('DELETE', '/api/user/api-keys?id=', { key: apiKey, body: { id: b.body.apiKey._id } });
    expect(empty.status).toBe(200);
    expect((await app.request('GET', '/api/user/api-keys', { key: b.body.key })).status).toBe(401);
    const emptyBody = await app.request('DELETE', `/api/user/api-keys?id=${cId}&id=${cId}`, { key: apiKey, body: { id: '' } });
    expect(emptyBody.status).toBe(200);
    expect((await app.request('GET', '/api/user/api-keys', { key: c.body.key })).status).toBe(401);
  });

  it("answers 404 for an unknown key, an already revoked key and another account's key; 400 for a missing or malformed id", async () => {
    const mine = await app.createAccount();
    const theirs = await app.createAccount();
    const theirKey = await app.request('POST', '/api/user/api-keys', { key: theirs.apiKey, body: { name: 'theirs' } });
    const myKey = await app.request('POST', '/api/user/api-keys', { key: mine.apiKey, body: { name: 'mine' } });
    await app.request('DELETE', '/api/user/api-keys', { key: mine.apiKey, body: { id: myKey.body.apiKey._id } });

    const cases: [unknown, number, RegExp][] = [
      [{ id: 'f'.repeat(24) }, 404, /API key not found/],
      [{ id: myKey.body.apiKey._id }, 404, /API key not found/],
      [{ id: theirKey.body.apiKey._id }, 404, /API key not found/],
      [{}, 400, /id is required/],
      [{ id: 'nope' }, 400, /id must be a 24-character hex id/],
    ];
    for (const [body, status, message] of cases) {
      const response = await app.request('DELETE', '/api/user/api-keys', { key: mine.apiKey, body });
      expect({ body, status: response.status }).toEqual({ body, status });
      expect(response.body.message).toMatch(message);
    }
    expect((await app.request('GET', '/api/user/api-keys', { key: theirKey.body.key })).status).toBe(200);
  });

  it('keeps lastUsedAt: null before any use, then the time of the last use', async () => {
    const { apiKey } = await app.createAccount();
    const spare = await app.request('POST', '/api/user/api-keys', { key: apiKey, body: { name: 'unused' } });
    const listed = await app.request('GET', '/api/user/api-keys', { key: apiKey });
    const byName = Object.fromEntries(listed.body.apiKeys.map((k: { name: string }) => [k.name, k]));
    expect(byName.unused.lastUsedAt).toBeNull();
    expect(Date.parse(byName.default.lastUsedAt)).toBeGreaterThan(Date.parse(byName.default.createdAt) - 1);
    expect(spare.status).toBe(201);
  });
});
