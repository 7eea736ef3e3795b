import { runTypeScript } from '../support/app-process';
import { startTestApp, TestApp } from '../support/test-app';

const CLI = 'apps/admin-cli/src/main.ts';

describe('Operator CLI (npm run admin -- ...), beside the running service', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(async () => {
    await app.close();
  });

  const admin = (...args: string[]) => runTypeScript(CLI, args, { DATA_DIR: app.dataDir, LOG_LEVEL: 'error' });

  it('opens an account whose key works at once on the running service, reads it and changes it', async () => {
    const created = await admin('create-account', '--name', 'From the CLI', '--plan', 'starter', '--trial', '--balance', '12');
    expect(created.code).toBe(0);
    const { account, apiKey } = JSON.parse(created.stdout);
    expect(account).toMatchObject({ name: 'From the CLI', plan: 'starter', isTrial: true, virtualBalance: 12, status: 'active' });
    expect((await app.request('GET', '/api/user/api-keys', { key: apiKey })).status).toBe(200);

    const read = await admin('get-account', account._id);
    expect(JSON.parse(read.stdout).account).toEqual(account);

    const suspended = await admin('update-account', account._id, '--status', 'blocked');
    expect(JSON.parse(suspended.stdout).account.status).toBe('blocked');
    expect((await app.request('GET', '/api/user/api-keys', { key: apiKey })).status).toBe(403);
  });

  it('says what is wrong and exits non-zero for bad input', async () => {
    const badPlan = await admin('create-account', '--plan', 'platinum');
    expect(badPlan.code).toBe(1);
    expect(badPlan.stderr).toMatch(/plan must be one of/);
    const unknown = await admin('get-account', '0123456789abcdef01234567');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/Account not found/);
    const usage = await admin('frobnicate');
    expect(usage.code).toBe(2);
    expect(usage.stderr).toMatch(/Unknown command/);
  });

  it('lists the plan catalogue', async () => {
    const plans = await admin('plans');
    expect(JSON.parse(plans.stdout).map((p: { id: string }) => p.id)).toEqual(['free', 'starter', 'pro', 'agency']);
  });
});
