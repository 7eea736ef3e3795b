import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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

  it('refuses what the operator API refuses, writing nothing: a --trial that is neither true nor false, a balance not in digits, extra arguments', async () => {
    const opened = JSON.parse((await admin('create-account', '--name', 'Strict')).stdout).account;
    const before = await app.admin('GET', `/admin/accounts/${opened._id}`);
    // Before: `--trial False` was read as `--trial true`, "" as a balance of 0, "0x10" as 16, "1e3" as 1000.
    for (const [args, code, message] of [
      [['update-account', opened._id, '--trial', 'False'], 1, 'Error: --trial takes true or false'],
      [['update-account', opened._id, '--trial', 'maybe'], 1, 'Error: --trial takes true or false'],
      [['update-account', opened._id, '--balance', ''], 1, 'Error: balance must be a whole number from 0 to 1000000000'],
      [['update-account', opened._id, '--balance', '0x10'], 1, 'Error: balance must be a whole number from 0 to 1000000000'],
      [['update-account', opened._id, '--balance', '1e3'], 1, 'Error: balance must be a whole number from 0 to 1000000000'],
      [['update-account', opened._id, 'extra', '--status', 'blocked'], 2, 'Error: update-account takes ID, not "extra"'],
      [['create-account', '--balance', '10', 'stray'], 2, 'Error: create-account takes no arguments, not "stray"'],
      // Before, a name or key name with a control or bidirectional character was written as it came.
      [['create-account', '--name', 'Strict\u0001'], 2, 'Error: --name must not contain control characters'],
      [
        ['create-account', '--name', 'Strict \u202Etxt.exe'],
        2,
        'Error: --name must not contain bidirectional control characters (U+202A-U+202E, U+2066-U+2069)',
      ],
      [['issue-key', opened._id, '--name', 'k\u0007ey'], 2, 'Error: --name must not contain control characters'],
    ] as const) {
      const result = await admin(...args);
      expect({ args, code: result.code, stderr: result.stderr.trim() }).toEqual({ args, code, stderr: message });
    }
    expect(await app.admin('GET', `/admin/accounts/${opened._id}`)).toMatchObject({ body: before.body });
    const accounts = JSON.parse((await admin('list-accounts', '--limit', '100')).stdout).accounts as { name: string }[];
    expect(accounts.filter((account) => account.name.startsWith('Strict'))).toHaveLength(1);
    const keys = JSON.parse((await admin('list-keys', opened._id)).stdout).apiKeys as { name: string }[];
    expect(keys.map((k) => k.name)).not.toContain('k\u0007ey');
    // `--trial` alone still means true, before another option too.
    const trial = await admin('update-account', opened._id, '--trial', '--status', 'active');
    expect(JSON.parse(trial.stdout).account).toMatchObject({ isTrial: true, status: 'active' });
  });

  it('lists the plan catalogue', async () => {
    const plans = await admin('plans');
    expect(JSON.parse(plans.stdout).map((p: { id: string }) => p.id)).toEqual(['free', 'starter', 'pro', 'agency']);
  });

  it('lists accounts, issues a key shown once, lists and revokes keys', async () => {
    const { accountId, apiKey: lost } = await app.createAccount({ name: 'Lost keys', plan: 'agency' });
    const listed = JSON.parse((await admin('list-accounts', '--plan', 'agency')).stdout);
    expect(listed).toMatchObject({ page: 1, limit: 50 });
    expect(listed.accounts.map((a: { _id: string }) => a._id)).toContain(accountId);
    expect(listed.accounts.every((a: { plan: string }) => a.plan === 'agency')).toBe(true);

    const issued = await admin('issue-key', accountId, '--name', 'from the CLI');
    expect(issued.code).toBe(0);
    const { key } = JSON.parse(issued.stdout);
    expect((await app.request('GET', '/api/user/api-keys', { key })).status).toBe(200);

    const keys = JSON.parse((await admin('list-keys', accountId)).stdout).apiKeys as { _id: string; name: string }[];
    expect(keys.map((k) => k.name)).toEqual(['default', 'from the CLI']);
    const revoked = await admin('revoke-key', accountId, keys[0]!._id);
    expect(revoked.code).toBe(0);
    expect((await app.request('GET', '/api/user/api-keys', { key: lost })).status).toBe(401);
    const again = await admin('revoke-key', accountId, keys[0]!._id);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/API key not found/);
  });

  it('prints its help with exit code 0, and refuses a data directory without a store unless told --init', async () => {
    const help = await admin('--help');
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/list-accounts/);
    const empty = mkdtempSync(join(tmpdir(), 'rank-tracker-cli-'));
    try {
      const refused = await runTypeScript(CLI, ['create-account'], { DATA_DIR: join(empty, 'typo'), LOG_LEVEL: 'error' });
      expect(refused.code).toBe(1);
      expect(refused.stderr).toMatch(/no event store at .*typo.*pass --init/);
      expect(existsSync(join(empty, 'typo', 'events.sqlite'))).toBe(false);
      const created = await runTypeScript(CLI, ['create-account', '--init', '--name', 'First'], {
        DATA_DIR: join(empty, 'typo'),
        LOG_LEVEL: 'error',
      });
      expect(created.code).toBe(0);
      expect(JSON.parse(created.stdout).account.name).toBe('First');
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });
});
