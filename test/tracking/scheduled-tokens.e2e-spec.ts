import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { Logger } from '@nestjs/common';
import { ProjectionRunner } from '@rank/projector/projection-runner';
import { CheckScheduler } from '@rank/tracking/schedule/check-scheduler';
import { ProjectContentRepository } from '@rank/projects/workspace.repository';
import { MonthlyTokensRepository } from '@rank/tracking/schedule/monthly-tokens.repository';
import { tokenSlotKey } from '@rank/tracking/domain/monthly-tokens';
import { startTestApp, TestApp } from '../support/test-app';

/** A clock the test moves by hand; every replica reads the same one. */
const clock = {
  current: new Date('2026-05-30T11:00:00.000Z'),
  now() {
    return this.current;
  },
};

/** A catalogue with tiny token totals, so that a few keywords use a month up. */
const PLANS = [
  { id: 'free', name: 'Free', apiAccess: false, monthlySerpTokens: 0 },
  { id: 'tiny', name: 'Tiny', apiAccess: true, monthlySerpTokens: 5 },
  { id: 'roomy', name: 'Roomy', apiAccess: true, monthlySerpTokens: 100 },
];

describe('Scheduled checks draw on the monthly SERP-check tokens', () => {
  let dataDir: string;
  let plansFile: string;
  const replicas: TestApp[] = [];
  const start = async () => {
    const app = await startTestApp({
      dataDir,
      database: `tok_${randomBytes(4).toString('hex')}`,
      clock,
      // No `scheduler` role: its cron would fire on the wall clock mid-test; the test calls it by hand.
      env: { ROLES: 'api,projections', PLANS_FILE: plansFile },
    });
    replicas.push(app);
    return app;
  };
  const caughtUp = async (...apps: TestApp[]) => {
    for (const app of apps) await app.running.app.get(ProjectionRunner).waitUntilCaughtUp();
  };
  const events = async (app: TestApp, stream: string) => await app.running.stores.eventStore.readStream(stream);
  /** A project's schedule stream, one line a slot. */
  const schedule = async (app: TestApp, projectId: string) =>
    (await events(app, `schedule-${projectId}`)).map((e) => {
      const d = e.data as Record<string, string | number>;
      return e.type === 'ScheduledCheckSkipped'
        ? `${d.slotKey} skipped ${d.reason} (needs ${d.needed}, ${d.available} left)`
        : `${d.slotKey} requested`;
    });
  /** An account's token ledger for a month, one line a decision. */
  const ledger = async (app: TestApp, accountId: string, month: string) =>
    (await events(app, `tokens-${accountId}-${month}`)).map((e) => {
      const d = e.data as Record<string, string | number>;
      return e.type === 'MonthlyTokensDrawn' ? `${d.projectId} ${d.slotKey} drew ${d.amount}` : `${d.projectId} ${d.slotKey} refused`;
    });
  const addProject = async (app: TestApp, key: string, body: Record<string, unknown>, keywords: number) => {
    const projectId = (await app.request('POST', '/api/projects', { key, body: { name: 'Tok', domain: 'tokens.example', ...body } })).body
      .project._id as string;
    const added = await app.request('POST', '/api/projects/keywords', {
      key,
      body: { projectId, keywords: Array.from({ length: keywords }, (_, i) => `kw ${i}`), geoCode: 'US', langCode: 'en' },
    });
    expect(added.status).toBe(200);
    return projectId;
  };
  const at = async (iso: string, app: TestApp) => {
    clock.current = new Date(iso);
    return app.running.app.get(CheckScheduler).requestDueSlots();
  };

  beforeAll(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'rank-tracker-tokens-'));
    plansFile = join(dataDir, 'plans.json');
    writeFileSync(plansFile, JSON.stringify(PLANS));
  });
  afterAll(async () => {
    for (const app of replicas) await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('runs a slot the tokens cover, skips and records one they do not (never requested later), starts afresh each UTC month, and follows a plan upgrade', async () => {
    const a = await start();
    const b = await start();
    const { accountId, apiKey: key } = await a.createAccount({ plan: 'tiny', balance: 10 });
    // Daily at 12:00 UTC. Created a minute apart, so the scheduler meets `cheap` first (ids follow time).
    const cheap = await addProject(a, key, {}, 3); // 3 tokens a slot
    clock.current = new Date('2026-05-30T11:01:00.000Z');
    const deep = await addProject(a, key, { serpTop: 100 }, 2); // 2 keywords x 2 = 4 tokens a slot
    expect(cheap < deep).toBe(true);
    await caughtUp(a, b);

    // Two replicas race for the first slots: `cheap` draws 3 of 5, `deep` needs 4 with 2 left.
    clock.current = new Date('2026-05-30T12:00:00.000Z');
    const counts = await Promise.all([a, b].map((app) => app.running.app.get(CheckScheduler).requestDueSlots()));
    expect(counts.sort()).toEqual([0, 1]);
    expect(await ledger(a, accountId, '2026-05')).toEqual([`${cheap} 2026-05-30@UTC drew 3`, `${deep} 2026-05-30@UTC refused`]);
    expect(await schedule(a, cheap)).toEqual(['2026-05-30 requested']);
    expect(await schedule(a, deep)).toEqual(['2026-05-30 skipped monthlyTokensExhausted (needs 4, 2 left)']);

    // The same minute again, and a restarted replica a minute later: nothing new anywhere.
    expect(await a.running.app.get(CheckScheduler).requestDueSlots()).toBe(0);
    const c = await start();
    await caughtUp(c);
    expect(await at('2026-05-30T12:01:00.000Z', c)).toBe(0);
    expect(await ledger(c, accountId, '2026-05')).toHaveLength(2);
    expect(await schedule(c, deep)).toEqual(['2026-05-30 skipped monthlyTokensExhausted (needs 4, 2 left)']);

    // The next day the 2 tokens left cover neither project.
    expect(await at('2026-05-31T12:00:00.000Z', c)).toBe(0);
    expect(await schedule(c, cheap)).toEqual(['2026-05-30 requested', '2026-05-31 skipped monthlyTokensExhausted (needs 3, 2 left)']);
    expect(await schedule(c, deep)).toEqual([
      '2026-05-30 skipped monthlyTokensExhausted (needs 4, 2 left)',
      '2026-05-31 skipped monthlyTokensExhausted (needs 4, 2 left)',
    ]);

    // A new UTC month brings the plan's tokens back.
    expect(await at('2026-06-01T12:00:00.000Z', c)).toBe(1);
    expect(await ledger(c, accountId, '2026-06')).toEqual([`${cheap} 2026-06-01@UTC drew 3`, `${deep} 2026-06-01@UTC refused`]);
    expect(await ledger(c, accountId, '2026-05')).toHaveLength(4);

    // The operator upgrades the plan: the next slot runs (the slot already skipped stays skipped).
    clock.current = new Date('2026-06-01T13:00:00.000Z');
    expect((await c.admin('PATCH', `/admin/accounts/${accountId}`, { plan: 'roomy' })).status).toBe(200);
    expect(await c.running.app.get(CheckScheduler).requestDueSlots()).toBe(0);
    expect(await at('2026-06-02T12:00:00.000Z', b)).toBe(2);
    expect(await ledger(c, accountId, '2026-06')).toEqual([
      `${cheap} 2026-06-01@UTC drew 3`,
      `${deep} 2026-06-01@UTC refused`,
      `${cheap} 2026-06-02@UTC drew 3`,
      `${deep} 2026-06-02@UTC drew 4`,
    ]);
    expect(await schedule(c, deep)).toEqual([
      '2026-05-30 skipped monthlyTokensExhausted (needs 4, 2 left)',
      '2026-05-31 skipped monthlyTokensExhausted (needs 4, 2 left)',
      '2026-06-01 skipped monthlyTokensExhausted (needs 4, 2 left)',
      '2026-06-02 requested',
    ]);

    // On-demand scrapes still charge the scrape balance and leave the tokens alone; capacity keeps the spec's formula.
    const keywordIds = (await c.running.app.get(ProjectContentRepository).load(deep)).keywords.map((k) => k.keywordId);
    expect((await c.request('POST', '/api/scrape/new-keywords', { key, body: { projectId: deep, keywordIds } })).status).toBe(200);
    expect((await c.admin('GET', `/admin/accounts/${accountId}`)).body.account.virtualBalance).toBe(10 - 4);
    expect(await ledger(c, accountId, '2026-06')).toHaveLength(4);
    const capacity = await c.request('GET', '/api/user/capacity', { key });
    expect(capacity.body).toMatchObject({ total: 100, booked: 3 * 30 + 2 * 30 * 2, available: 100 - 210 });
  }, 60_000);

  it("skips a blocked account's slots without drawing tokens; a suspended account's run, and so do the blocked one's once it is active again", async () => {
    const app = await start();
    const blocked = await app.createAccount({ plan: 'roomy' });
    const suspended = await app.createAccount({ plan: 'roomy' });
    clock.current = new Date('2026-08-10T08:00:00.000Z');
    const theirs = await addProject(app, blocked.apiKey, {}, 2);
    const held = await addProject(app, suspended.apiKey, {}, 2);
    expect((await app.admin('PATCH', `/admin/accounts/${blocked.accountId}`, { status: 'blocked' })).status).toBe(200);
    expect((await app.admin('PATCH', `/admin/accounts/${suspended.accountId}`, { status: 'suspended' })).status).toBe(200);
    await caughtUp(app);

    // Before, the blocked account, which may not even read, drew tokens and sent its checks to Google.
    // (The earlier tests' projects share the data: the counts of the runs are theirs too.)
    await at('2026-08-10T12:00:00.000Z', app);
    expect(await schedule(app, theirs)).toEqual(['2026-08-10 skipped accountBlocked (needs 0, 0 left)']);
    expect(await ledger(app, blocked.accountId, '2026-08')).toEqual([]);
    expect(await schedule(app, held)).toEqual(['2026-08-10 requested']);

    expect((await app.admin('PATCH', `/admin/accounts/${blocked.accountId}`, { status: 'active' })).status).toBe(200);
    await at('2026-08-11T12:00:00.000Z', app);
    expect(await schedule(app, theirs)).toEqual(['2026-08-10 skipped accountBlocked (needs 0, 0 left)', '2026-08-11 requested']);
  }, 60_000);

  it('names the plan, not tokens used up, when an account moved to Free has its slot skipped', async () => {
    const app = await start();
    const { accountId, apiKey } = await app.createAccount({ plan: 'roomy' });
    clock.current = new Date('2026-09-10T08:00:00.000Z');
    const projectId = await addProject(app, apiKey, {}, 2);
    expect((await app.admin('PATCH', `/admin/accounts/${accountId}`, { plan: 'free' })).status).toBe(200);
    await caughtUp(app);
    const warnings = jest.spyOn(Logger.prototype, 'warn');
    try {
      await at('2026-09-10T12:00:00.000Z', app);
      expect(await schedule(app, projectId)).toEqual(['2026-09-10 skipped monthlyTokensExhausted (needs 2, 0 left)']);
      // Before: "the 2026-09 SERP-check tokens are used up (needs 2, 0 left)", as if the month had been spent.
      expect(warnings.mock.calls.map((call) => String(call[0])).filter((line) => line.includes(projectId))).toEqual([
        `skipped the 2026-09-10 check of project ${projectId} (account ${accountId}): its plan (Free) includes no SERP-check tokens (needs 2)`,
      ]);
    } finally {
      warnings.mockRestore();
    }
  }, 60_000);

  it('draws on the UTC month of the due time, and a scheduler that crashed after drawing does not pay twice', async () => {
    const [app] = replicas;
    const { accountId, apiKey: key } = await app!.createAccount({ plan: 'tiny' });
    // 22:00 in New York on 30 June is 02:00 UTC on 1 July: the slot (key 2026-06-30) draws on July.
    clock.current = new Date('2026-06-30T12:00:00.000Z');
    const projectId = await addProject(app!, key, { updateTime: 22, updateTimezone: 'America/New_York' }, 5);
    await caughtUp(app!);

    // A replica drew the slot's tokens and died before requesting it.
    clock.current = new Date('2026-07-01T02:00:00.000Z');
    const drawn = await app!.running.app.get(MonthlyTokensRepository).draw(
      {
        type: 'DrawTokens',
        accountId,
        month: '2026-07',
        projectId,
        slotKey: tokenSlotKey('2026-06-30', 'America/New_York'),
        keywordCount: 5,
        serpTop: 50,
        refreshesPerMonth: 30,
        total: 5,
      },
      clock.current,
    );
    expect(drawn).toEqual({ kind: 'drawn', amount: 5 });

    await app!.running.app.get(CheckScheduler).requestDueSlots();
    expect(await schedule(app!, projectId)).toEqual(['2026-06-30 requested']);
    expect(await ledger(app!, accountId, '2026-07')).toEqual([`${projectId} 2026-06-30@America/New_York drew 5`]);
    expect(await ledger(app!, accountId, '2026-06')).toEqual([]);
  }, 60_000);

  it("pays a zone change's new day apart from the old zone's day of the same date", async () => {
    const [app] = replicas;
    const { accountId, apiKey: key } = await app!.createAccount({ plan: 'roomy' });
    clock.current = new Date('2026-08-02T12:00:00.000Z');
    const body = { name: 'Zones', domain: 'zones.example', updateTime: 0 };
    const projectId = await addProject(app!, key, { ...body, updateTimezone: 'UTC' }, 2);
    await caughtUp(app!);
    // (The earlier tests' projects have slots due too: only this project's streams are looked at.)
    await at('2026-08-03T00:00:00.000Z', app!);
    expect(await schedule(app!, projectId)).toEqual(['2026-08-03 requested']);

    // Midnight in New York is 04:00 UTC: 3 August there is a new slot, run once, and paid.
    clock.current = new Date('2026-08-03T01:00:00.000Z');
    const moved = await app!.request('PUT', '/api/projects', {
      key,
      body: { _id: projectId, ...body, updateTimezone: 'America/New_York' },
    });
    expect(moved.status).toBe(200);
    await caughtUp(app!);
    await at('2026-08-03T04:00:00.000Z', app!);
    expect(await schedule(app!, projectId)).toEqual(['2026-08-03 requested', '2026-08-03 requested']);
    // Before: one draw, keyed by the date alone; New York's day was handed UTC's decision and ran unpaid.
    expect(await ledger(app!, accountId, '2026-08')).toEqual([
      `${projectId} 2026-08-03@UTC drew 2`,
      `${projectId} 2026-08-03@America/New_York drew 2`,
    ]);
  }, 60_000);
});
