import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repositoryPath } from '@rank/platform/repository-path';
import { splitSqlStatements } from '@rank/read-store/migrations';
import { CheckProgressReader } from '@rank/tracking/reads/check-progress/check-progress.reader';
import type { TestApp } from '../../support/test-app';
import { createProject, NOW, seed, startReadsApp } from './reads-fixture';

const BACKFILL = join(repositoryPath(), 'libs/tracking/migrations/017_check_progress_of_earlier_checks.sql');

describe('Upgrading a read store from before check_progress (migration 017)', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startReadsApp();
  }, 60_000);
  afterAll(() => app?.close());

  it("gives a project's last check day from the checks stored before, as a rebuilt store does", async () => {
    const { apiKey } = await app.createAccount();
    const { projectId, ids } = await createProject(app, apiKey, { domain: 'ours.com' }, [
      { keywords: ['red', 'blue', 'green'], geoCode: 'US', langCode: 'en' },
    ]);
    await seed(app, [
      { projectId, keywordId: ids['red']!, at: '2026-03-18T07:00:00.000Z', urls: ['https://ours.com/'], projectDomains: ['ours.com'] },
      { projectId, keywordId: ids['red']!, at: '2026-03-19T07:00:00.000Z', urls: ['https://ours.com/'], projectDomains: ['ours.com'] },
      { projectId, keywordId: ids['blue']!, at: '2026-03-19T07:05:00.000Z', urls: ['https://other.com/'] },
      { projectId, keywordId: ids['green']!, at: '2026-03-19T07:06:00.000Z', failedReason: 'blocked' },
    ]);
    const reader = app.running.app.get(CheckProgressReader);
    const store = app.running.stores.readStore;
    const rebuilt = await reader.lastCheckDay(projectId, NOW);
    expect(rebuilt).toEqual({ date: '2026-03-19', checked: 2, failed: 1, pending: 0 });

    // A store upgraded in place from before 010: the results are there, check_progress is empty.
    await store.command('TRUNCATE TABLE check_progress');
    expect(await reader.lastCheckDay(projectId, NOW)).toBeNull();

    const statements = splitSqlStatements(readFileSync(BACKFILL, 'utf8'));
    for (const statement of statements) await store.command(statement);
    expect(await reader.lastCheckDay(projectId, NOW)).toEqual(rebuilt);
    // A rerun writes nothing more.
    const count = async () => (await store.query<{ n: string }>('SELECT toString(count()) AS n FROM check_progress'))[0]!.n;
    const once = await count();
    for (const statement of statements) await store.command(statement);
    expect(await count()).toBe(once);
  });
});
