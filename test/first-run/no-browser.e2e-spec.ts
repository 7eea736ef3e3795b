import type { RecordedEvent } from '@rank/event-store/event-store.port';
import { ConfigError } from '@rank/platform/config/app-config';
import { startTestApp, TestApp } from '../support/test-app';
import { checkResultsOf } from '../support/seed-checks';
import { waitFor } from '@rank/platform/testing/wait-for';

/**
 * A scraper without a working browser: the check fails at once, with a reason that says how to fix
 * it, and gives its credit back. It is not retried: the same machine would fail the same way.
 */
describe('A scraper that cannot start a browser', () => {
  let app: TestApp;
  beforeAll(async () => {
    // /bin/false exists, so the start passes, and exits at once when launched, as a broken browser does.
    app = await startTestApp({ env: { ROLES: 'api,projections,scraper', CHROMIUM_PATH: '/bin/false' } });
  });
  afterAll(async () => {
    await app.close();
  });

  it('fails the check at once with the fix as its reason, and refunds it', async () => {
    const { accountId, apiKey: key } = await app.createAccount({ balance: 5 });
    const projectId = (await app.request('POST', '/api/projects', { key, body: { name: 'Eggs', domain: 'simplyrecipes.com' } })).body
      .project._id;
    const added = await app.request('POST', '/api/projects/keywords', {
      key,
      body: { projectId, keywords: ['how to boil eggs'], geoCode: 'US', langCode: 'en' },
    });
    const keywordId = added.body.project.keywords[0];

    const started = Date.now();
    expect((await app.request('POST', '/api/scrape/new-keywords', { key, body: { projectId, keywordIds: [keywordId] } })).status).toBe(200);
    const [result] = await waitFor(
      () => checkResultsOf(app.running.stores.eventStore, projectId),
      (events: RecordedEvent[]) => events.length > 0,
      20_000,
    );

    expect(result!.type).toBe('CheckFailed');
    expect((result!.data as { reason: string }).reason).toMatch(
      /^browser unavailable \(No browser could be started: install Debian's chromium \(apt-get install chromium\) or set CHROMIUM_PATH to a Chrome or Chromium binary \(CHROMIUM_PATH \/bin\/false: /,
    );
    // Four attempts with their redelivery pauses would take far longer than one failed launch.
    expect(Date.now() - started).toBeLessThan(10_000);
    await waitFor(
      async () => (await app.admin('GET', `/admin/accounts/${accountId}`)).body.account.virtualBalance,
      (balance) => balance === 5,
    );
  });
});

it('a CHROMIUM_PATH that points at nothing stops the start with a message naming the variable', async () => {
  const start = startTestApp({ env: { ROLES: 'api,projections,scraper', CHROMIUM_PATH: '/nowhere/chromium' } });
  await expect(start).rejects.toThrow(ConfigError);
  await expect(start).rejects.toThrow('CHROMIUM_PATH is set to "/nowhere/chromium", but no file exists there');
});
