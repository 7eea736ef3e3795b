import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
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

  /** A POST whose headers go out now and whose body goes out when `finish` is called; resolves with the raw answer. */
  async function slowPost(key: string, path: string, body: unknown): Promise<{ finish(): Promise<string> }> {
    const url = new URL(app.url);
    const socket = connect(Number(url.port), url.hostname);
    await once(socket, 'connect');
    const text = JSON.stringify(body);
    let answer = '';
    socket.on('data', (chunk) => (answer += chunk.toString()));
    socket.write(
      `POST ${path} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${Buffer.byteLength(text)}\r\nConnection: close\r\n\r\n`,
    );
    // The headers are in, and the key checked before the body, by the time the caller acts.
    await new Promise((resolve) => setTimeout(resolve, 300));
    return {
      finish: async () => {
        socket.write(text);
        await once(socket, 'close');
        return answer;
      },
    };
  }
  const statusOf = (answer: string) => Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1]);
  const bodyOf = (answer: string) => JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4));

  it('refuses a write whose body arrived after its key was revoked or its account blocked, though its headers came before', async () => {
    const { accountId, apiKey } = await app.createAccount();
    const [keyId] = (await app.request('GET', '/api/user/api-keys', { key: apiKey })).body.apiKeys.map((k: { _id: string }) => k._id);
    const revoked = await slowPost(apiKey, '/api/projects/folders', { name: 'after revocation' });
    expect((await app.request('DELETE', `/api/user/api-keys?id=${keyId}`, { key: apiKey })).status).toBe(200);
    const answer = await revoked.finish();
    expect(statusOf(answer)).toBe(401);
    expect(bodyOf(answer)).toEqual({ success: false, message: 'API key has been revoked' });
    const key = (await app.admin('POST', `/admin/accounts/${accountId}/api-keys`, { name: 'replacement' })).body.key as string;
    expect((await app.request('GET', '/api/projects/folders', { key })).body.folders).toEqual([]);

    const blocked = await slowPost(key, '/api/projects', { name: 'after blocking', domain: 'eggs.example' });
    await app.admin('PATCH', `/admin/accounts/${accountId}`, { status: 'blocked' });
    const refused = await blocked.finish();
    expect(statusOf(refused)).toBe(403);
    expect(bodyOf(refused)).toMatchObject({ success: false, message: 'Account blocked', blocked: true });
    await app.admin('PATCH', `/admin/accounts/${accountId}`, { status: 'active' });
    expect((await app.request('GET', '/api/projects', { key })).body.projects).toEqual([]);
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
