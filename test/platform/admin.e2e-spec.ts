import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ProjectionRunner } from '@rank/projector/projection-runner';
import { startTestApp, TEST_ADMIN_TOKEN, TestApp } from '../support/test-app';
import { answerToUnsentBody } from '../support/unsent-body';

describe('Operator API (/admin/accounts)', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(async () => {
    await app.close();
  });

  it('opens an account on the pro plan by default, with a first key named default that works', async () => {
    const response = await app.admin('POST', '/admin/accounts', { name: 'Agency' });
    expect(response.status).toBe(201);
    expect(response.body).toEqual({
      success: true,
      account: {
        _id: expect.stringMatching(/^[0-9a-f]{24}$/),
        name: 'Agency',
        plan: 'pro',
        isTrial: false,
        status: 'active',
        virtualBalance: 0,
        createdAt: expect.any(String),
      },
      apiKey: expect.stringMatching(/_[0-9a-f]{24}$/),
    });
    const keys = await app.request('GET', '/api/user/api-keys', { key: response.body.apiKey });
    expect(keys.body.apiKeys.map((k: { name: string }) => k.name)).toEqual(['default']);
  });

  it('opens an account with plan, trial and balance, reads it and changes it', async () => {
    const opened = await app.admin('POST', '/admin/accounts', { name: 'Trial', plan: 'starter', trial: true, balance: 25 });
    expect(opened.body.account).toMatchObject({ plan: 'starter', isTrial: true, virtualBalance: 25 });
    const id = opened.body.account._id;

    expect((await app.admin('GET', `/admin/accounts/${id}`)).body.account).toEqual(opened.body.account);
    const changed = await app.admin('PATCH', `/admin/accounts/${id}`, { plan: 'agency', trial: false, status: 'suspended', balance: 7 });
    expect(changed.status).toBe(200);
    expect(changed.body.account).toMatchObject({ plan: 'agency', isTrial: false, status: 'suspended', virtualBalance: 7 });
    expect((await app.admin('GET', `/admin/accounts/${id}`)).body.account.status).toBe('suspended');
  });

  it.each([
    ['POST', '/admin/accounts', { plan: 'platinum' }, 400, /plan must be one of free, starter, pro, agency/],
    ['POST', '/admin/accounts', { balance: -1 }, 400, /^balance must be a whole number from 0 to 1000000000$/],
    // Beyond what a number counts exactly: 1e300 - 1 is 1e300, so a charge would cost nothing.
    ['POST', '/admin/accounts', { balance: 1e300 }, 400, /^balance must be a whole number from 0 to 1000000000$/],
    [
      'PATCH',
      '/admin/accounts/0123456789abcdef01234567',
      { balance: 2 ** 53 },
      400,
      /^balance must be a whole number from 0 to 1000000000$/,
    ],
    ['POST', '/admin/accounts', { trial: 'yes' }, 400, /trial must be true or false/],
    ['POST', '/admin/accounts', { name: '🏢'.repeat(201) }, 400, /name must be a string of at most 200 characters/],
    ['PATCH', '/admin/accounts/0123456789abcdef01234567', { status: 'active' }, 404, /Account not found/],
    ['PATCH', '/admin/accounts/xyz', { status: 'active' }, 400, /id must be a 24-character hex id/],
    ['GET', '/admin/accounts/0123456789abcdef01234567', undefined, 404, /Account not found/],
  ])('%s %s %p gives %i', async (method, path, body, status, message) => {
    const response = await app.admin(method, path, body);
    expect(response.status).toBe(status);
    expect(response.body.message).toMatch(message);
  });

  it('counts an account name in characters, not UTF-16 units: 200 emoji are a name', async () => {
    const opened = await app.admin('POST', '/admin/accounts', { name: '🏢'.repeat(200) });
    expect(opened.status).toBe(201);
    expect(opened.body.account.name).toBe('🏢'.repeat(200));
  });

  it('refuses a PATCH with nothing to change or an unknown status', async () => {
    const { accountId } = await app.createAccount();
    expect((await app.admin('PATCH', `/admin/accounts/${accountId}`, {})).status).toBe(400);
    const bad = await app.admin('PATCH', `/admin/accounts/${accountId}`, { status: 'frozen' });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/status must be one of active, suspended, blocked/);
  });

  it('refuses a body without the operator token before reading it, and counts it as a wrong token', async () => {
    // Announced, never sent: a server reading the body first would answer 408 once the request timed out.
    const answer = await answerToUnsentBody(
      app.url,
      'POST',
      '/admin/accounts',
      { Authorization: 'Bearer wrong', 'Content-Type': 'application/json' },
      3_000_000,
    );
    expect(answer).toMatch(/^HTTP\/1\.1 401 /);
    expect(answer).toMatch(/operator token/);
    // A body that does not parse is refused for its token too (it was a 400 that counted no failure).
    const unparsable = await app.request('POST', '/admin/accounts', {
      key: null,
      rawBody: '{',
      headers: { 'content-type': 'application/json' },
    });
    expect(unparsable.status).toBe(401);
  });

  it('answers 401 to a wrong or missing operator token, and an account key is not an operator token', async () => {
    const { apiKey } = await app.createAccount();
    for (const key of [undefined, 'wrong-token-wrong-token', apiKey]) {
      const response = await app.request('POST', '/admin/accounts', { key, body: {} });
      expect(response.status).toBe(401);
      expect(response.body.message).toMatch(/operator token/);
    }
  });
});

describe('Operator API without ADMIN_TOKEN', () => {
  it('answers 404 for the whole /admin tree', async () => {
    const app = await startTestApp({ env: { ADMIN_TOKEN: '' } });
    try {
      for (const [method, path] of [
        ['POST', '/admin/accounts'],
        ['GET', '/admin/accounts/0123456789abcdef01234567'],
      ]) {
        const response = await app.request(method, path, { key: TEST_ADMIN_TOKEN, body: method === 'POST' ? {} : undefined });
        expect(response.status).toBe(404);
      }
      // Whatever the method or body: before, these answered 405 with the routes' methods, or 415,
      // telling that the tree exists.
      for (const [method, path, options] of [
        ['PUT', '/admin/accounts', {}],
        ['DELETE', '/admin/accounts/0123456789abcdef01234567', {}],
        ['OPTIONS', '/admin/accounts', {}],
        ['POST', '/%61dmin/accounts', { rawBody: 'name=x', headers: { 'content-type': 'text/plain' } }],
      ] as const) {
        const response = await app.request(method, path, { key: null, ...options });
        expect({ method, path, status: response.status, allow: response.headers.get('allow') }).toEqual({
          method,
          path,
          status: 404,
          allow: null,
        });
        expect(response.body).toEqual({ success: false, message: expect.stringMatching(/^No route /) });
      }
    } finally {
      await app.close();
    }
  });
});

describe('Operator API: listing accounts and handling their keys', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(async () => {
    await app.close();
  });

  it('lists accounts oldest first, paged, filtered by status and plan, with their current balance', async () => {
    const opened: string[] = [];
    for (const [name, plan] of [
      ['A', 'pro'],
      ['B', 'starter'],
      ['C', 'pro'],
      ['D', 'agency'],
    ]) {
      opened.push((await app.admin('POST', '/admin/accounts', { name, plan })).body.account._id);
    }
    await app.admin('PATCH', `/admin/accounts/${opened[2]}`, { status: 'suspended', balance: 40 });
    const runner = app.running.app.get(ProjectionRunner);
    await runner.waitUntilCaughtUp();

    const all = await app.admin('GET', '/admin/accounts?limit=3');
    expect(all.status).toBe(200);
    expect(all.body).toMatchObject({ success: true, page: 1, limit: 3, total: 4 });
    expect(all.body.accounts.map((a: { _id: string }) => a._id)).toEqual(opened.slice(0, 3));
    const second = await app.admin('GET', '/admin/accounts?limit=3&page=2');
    expect(second.body.accounts.map((a: { _id: string }) => a._id)).toEqual([opened[3]]);

    const pro = await app.admin('GET', '/admin/accounts?plan=pro');
    expect(pro.body.accounts.map((a: { name: string }) => a.name)).toEqual(['A', 'C']);
    const suspended = await app.admin('GET', '/admin/accounts?status=suspended');
    expect(suspended.body).toMatchObject({ total: 1, accounts: [{ _id: opened[2], name: 'C', status: 'suspended', virtualBalance: 40 }] });
    expect((await app.admin('GET', '/admin/accounts?status=active&plan=pro')).body.accounts.map((a: { name: string }) => a.name)).toEqual([
      'A',
    ]);
  });

  it.each([
    ['/admin/accounts?status=closed', /status must be one of active, suspended, blocked/],
    ['/admin/accounts?limit=0', /limit must be a whole number from 1 to 100/],
    ['/admin/accounts?limit=101', /limit must be a whole number from 1 to 100/],
    ['/admin/accounts?page=x', /page must be a whole number/],
    // Not decimal digits: before, read as 16, 10 and 2.
    ['/admin/accounts?limit=0x10', /limit must be a whole number from 1 to 100/],
    ['/admin/accounts?limit=1e1', /limit must be a whole number from 1 to 100/],
    ['/admin/accounts?page=%2B2', /page must be a whole number/],
  ])('answers 400 naming the field for %s', async (path, message) => {
    const response = await app.admin('GET', path);
    expect(response.status).toBe(400);
    expect(response.body.message).toMatch(message);
  });

  it('issues a new key for a user who lost theirs, shown once, lists the keys, and a revoked key fails on the next request', async () => {
    const { accountId, apiKey: lost } = await app.createAccount({ name: 'Forgetful' });
    const issued = await app.admin('POST', `/admin/accounts/${accountId}/api-keys`, { name: 'replacement' });
    expect(issued.status).toBe(201);
    expect(issued.body).toEqual({
      success: true,
      key: expect.stringMatching(new RegExp(`_${accountId}$`)),
      apiKey: {
        _id: expect.stringMatching(/^[0-9a-f]{24}$/),
        name: 'replacement',
        keyPrefix: expect.any(String),
        createdAt: expect.any(String),
      },
    });
    expect((await app.request('GET', '/api/user/api-keys', { key: issued.body.key })).status).toBe(200);

    const listed = await app.admin('GET', `/admin/accounts/${accountId}/api-keys`);
    expect(listed.body.apiKeys.map((k: { name: string }) => k.name)).toEqual(['default', 'replacement']);
    expect(JSON.stringify(listed.body)).not.toContain(issued.body.key);
    const defaultKey = listed.body.apiKeys.find((k: { name: string }) => k.name === 'default');
    expect(defaultKey.lastUsedAt).toBeNull();

    expect((await app.admin('DELETE', `/admin/accounts/${accountId}/api-keys/${defaultKey._id}`)).body).toEqual({ success: true });
    expect((await app.request('GET', '/api/user/api-keys', { key: lost })).status).toBe(401);
    expect((await app.admin('DELETE', `/admin/accounts/${accountId}/api-keys/${defaultKey._id}`)).status).toBe(404);
    expect((await app.admin('GET', `/admin/accounts/${accountId}/api-keys`)).body.apiKeys.map((k: { name: string }) => k.name)).toEqual([
      'replacement',
    ]);
  });

  it('refuses keys for unknown accounts, bad names and bad key ids', async () => {
    const { accountId } = await app.createAccount();
    expect((await app.admin('POST', '/admin/accounts/0123456789abcdef01234567/api-keys', {})).status).toBe(404);
    expect((await app.admin('GET', '/admin/accounts/0123456789abcdef01234567/api-keys')).status).toBe(404);
    const badName = await app.admin('POST', `/admin/accounts/${accountId}/api-keys`, { name: 'x'.repeat(101) });
    expect(badName.status).toBe(400);
    expect(badName.body.message).toMatch(/name must be 1 to 100 characters/);
    const badKey = await app.admin('DELETE', `/admin/accounts/${accountId}/api-keys/nope`);
    expect(badKey.status).toBe(400);
    expect(badKey.body.message).toMatch(/keyId must be a 24-character hex id/);
  });
});

describe('Operator API with a PLANS_FILE without a pro plan', () => {
  let app: TestApp;
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'rank-tracker-plans-'));
    const plansFile = join(dir, 'plans.json');
    writeFileSync(
      plansFile,
      JSON.stringify([
        { id: 'free', name: 'Free', apiAccess: false, monthlySerpTokens: 0 },
        { id: 'team', name: 'Team', apiAccess: true, monthlySerpTokens: 50_000 },
      ]),
    );
    app = await startTestApp({ env: { PLANS_FILE: plansFile } });
  });
  afterAll(async () => {
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('opens an account without a plan on the first plan with API access, where it answered "plan must be one of" to a plan never sent', async () => {
    const opened = await app.admin('POST', '/admin/accounts', { name: 'Agency' });
    expect(opened.status).toBe(201);
    expect(opened.body.account.plan).toBe('team');
    expect((await app.request('GET', '/api/projects', { key: opened.body.apiKey })).status).toBe(200);
    const named = await app.admin('POST', '/admin/accounts', { name: 'Other', plan: 'pro' });
    expect(named.status).toBe(400);
    expect(named.body.message).toBe('plan must be one of free, team');
  });
});
