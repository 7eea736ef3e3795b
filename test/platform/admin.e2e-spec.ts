import { startTestApp, TEST_ADMIN_TOKEN, TestApp } from '../support/test-app';

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
      account: { _id: expect.stringMatching(/^[0-9a-f]{24}$/), name: 'Agency', plan: 'pro', isTrial: false, status: 'active', virtualBalance: 0, createdAt: expect.any(String) },
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
    ['POST', '/admin/accounts', { balance: -1 }, 400, /balance must be a whole number/],
    ['POST', '/admin/accounts', { trial: 'yes' }, 400, /trial must be true or false/],
    ['PATCH', '/admin/accounts/0123456789abcdef01234567', { status: 'active' }, 404, /Account not found/],
    ['PATCH', '/admin/accounts/xyz', { status: 'active' }, 400, /id must be a 24-character hex id/],
    ['GET', '/admin/accounts/0123456789abcdef01234567', undefined, 404, /Account not found/],
  ])('%s %s %p gives %i', async (method, path, body, status, message) => {
    const response = await app.admin(method, path, body);
    expect(response.status).toBe(status);
    expect(response.body.message).toMatch(message);
  });

  it('refuses a PATCH with nothing to change or an unknown status', async () => {
    const { accountId } = await app.createAccount();
    expect((await app.admin('PATCH', `/admin/accounts/${accountId}`, {})).status).toBe(400);
    const bad = await app.admin('PATCH', `/admin/accounts/${accountId}`, { status: 'frozen' });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/status must be one of active, suspended, blocked/);
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
      for (const [method, path] of [['POST', '/admin/accounts'], ['GET', '/admin/accounts/0123456789abcdef01234567']]) {
        const response = await app.request(method, path, { key: TEST_ADMIN_TOKEN, body: method === 'POST' ? {} : undefined });
        expect(response.status).toBe(404);
      }
    } finally {
      await app.close();
    }
  });
});
