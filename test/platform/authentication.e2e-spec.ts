import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestApp, TestApp } from '../support/test-app';

describe('Authentication and account state', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(async () => {
    await app.close();
  });

  it('answers 401 with a JSON message for a missing, malformed, unknown or forged key', async () => {
    const { accountId, apiKey } = await app.createAccount();
    const forged = `${'A'.repeat(40)}_${accountId}`;
    const cases: [Record<string, string>, RegExp][] = [
      [{}, /Missing API key/],
      [{ authorization: '' }, /Missing API key/],
      [{ authorization: apiKey }, /Malformed Authorization header/],
      [{ authorization: `Basic ${apiKey}` }, /Malformed Authorization header/],
      [{ authorization: 'Bearer not-a-key' }, /Invalid API key/],
      [{ authorization: `Bearer ${forged}` }, /Invalid API key/],
      [{ authorization: `Bearer ${apiKey.slice(0, 40)}_${'0'.repeat(24)}` }, /Invalid API key/],
    ];
    for (const [headers, message] of cases) {
      const response = await app.request('GET', '/api/user/api-keys', { headers });
      expect({ headers, status: response.status }).toEqual({ headers, status: 401 });
      expect(response.body.message).toMatch(message);
    }
    expect((await app.request('GET', '/api/user/api-keys', { headers: { authorization: `bearer ${apiKey}` } })).status).toBe(200);
  });

  it('answers 403 planRequired on the Free plan, and lets the key work again once on a paid plan', async () => {
    const { accountId, apiKey } = await app.createAccount({ plan: 'free' });
    const refused = await app.request('GET', '/api/user/api-keys', { key: apiKey });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ planRequired: true, message: expect.stringMatching(/paid plan/) });

    await app.admin('PATCH', `/admin/accounts/${accountId}`, { plan: 'pro' });
    expect((await app.request('GET', '/api/user/api-keys', { key: apiKey })).status).toBe(200);
    await app.admin('PATCH', `/admin/accounts/${accountId}`, { plan: 'free' });
    expect((await app.request('GET', '/api/user/api-keys', { key: apiKey })).status).toBe(403);
  });

  it('answers 403 blocked on every call of a blocked account', async () => {
    const { accountId, apiKey } = await app.createAccount();
    await app.admin('PATCH', `/admin/accounts/${accountId}`, { status: 'blocked' });
    for (const [method, body] of [
      ['GET', undefined],
      ['POST', { name: 'x' }],
      ['DELETE', { id: 'f'.repeat(24) }],
    ] as const) {
      const response = await app.request(method, '/api/user/api-keys', { key: apiKey, body });
      expect(response.status).toBe(403);
      expect(response.body).toMatchObject({ message: 'Account blocked', blocked: true });
    }
  });

  it('lets a suspended account still manage its API keys', async () => {
    const { accountId, apiKey } = await app.createAccount();
    await app.admin('PATCH', `/admin/accounts/${accountId}`, { status: 'suspended' });
    expect((await app.request('GET', '/api/user/api-keys', { key: apiKey })).status).toBe(200);
    expect((await app.request('POST', '/api/user/api-keys', { key: apiKey, body: { name: 'still allowed' } })).status).toBe(201);
  });
});

describe('Revocation across replicas', () => {
  it('a key revoked on one replica fails on the very next request to another replica sharing the event store', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'rank-tracker-replicas-'));
    const replicaA = await startTestApp({ dataDir });
    const replicaB = await startTestApp({ dataDir });
    try {
      const { apiKey } = await replicaA.createAccount();
      const extra = await replicaA.request('POST', '/api/user/api-keys', { key: apiKey, body: { name: 'to revoke' } });
      // B has seen and cached the key as valid before the revocation.
      expect((await replicaB.request('GET', '/api/user/api-keys', { key: extra.body.key })).status).toBe(200);

      expect((await replicaA.request('DELETE', '/api/user/api-keys', { key: apiKey, body: { id: extra.body.apiKey._id } })).status).toBe(
        200,
      );
      expect((await replicaB.request('GET', '/api/user/api-keys', { key: extra.body.key })).status).toBe(401);
    } finally {
      await replicaB.close();
      await replicaA.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
