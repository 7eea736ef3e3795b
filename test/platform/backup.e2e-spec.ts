import { copyFileSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes, randomUUID } from 'node:crypto';
import { createEventStore } from '@rank/event-store/create-event-store';
import { ALL_PROJECTIONS } from '@rank/projector/all-projections';
import { ProjectionRunner, resetReadModels } from '@rank/projector/projection-runner';
import { createReadStore } from '@rank/read-store/create-read-store';
import { EMBEDDED_EVENT_STORE_FILE } from '@rank/platform/stores/open-stores';
import { runTypeScript } from '../support/app-process';
import { processChdbPath } from '../support/chdb-path';
import { startTestApp, TestApp } from '../support/test-app';

const CLI = 'apps/admin-cli/src/main.ts';

/**
 * The README's backup and restore: `npm run admin -- backup FILE` beside the running service, then the
 * copy put back in place of the log, the refused start that follows, the rebuild, and a service that
 * projects what comes next.
 */
describe('Backing up the embedded event store while the service runs, and restoring the copy', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'rank-tracker-backup-'));
  const backups = mkdtempSync(join(tmpdir(), 'rank-tracker-backups-'));
  const database = `bk_${randomBytes(6).toString('hex')}`;
  let app: TestApp | undefined;

  afterAll(async () => {
    await app?.close({ keepData: true });
    const readStore = await createReadStore({ database, chdbPath: processChdbPath() });
    await readStore.command(`DROP DATABASE IF EXISTS ${database}`);
    await readStore.close();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(backups, { recursive: true, force: true });
  });

  const projectNames = async (running: TestApp, key: string) => {
    await running.running.app.get(ProjectionRunner).waitUntilCaughtUp();
    return ((await running.request('GET', '/api/projects', { key })).body.projects as { name: string }[]).map((p) => p.name).sort();
  };
  const backup = (file: string) => runTypeScript(CLI, ['backup', file], { DATA_DIR: dataDir, LOG_LEVEL: 'error' });

  it('copies what was committed and never overwrites; after a restore the start asks for a rebuild, and then projects what comes next', async () => {
    app = await startTestApp({ dataDir, database });
    const { apiKey: key } = await app.createAccount();
    expect((await app.request('POST', '/api/projects', { key, body: { name: 'Before', domain: 'before.example' } })).status).toBe(201);

    // Given a backup taken while the service runs
    const file = join(backups, 'events.sqlite');
    const store = app.running.stores.eventStore;
    const before = await store.lastPosition();
    const taken = await backup(file);
    expect(taken.code).toBe(0);
    // The service's background work (the dispatcher's checkpoint, say) may append while the copy is
    // taken: the copy holds everything committed before it began, and exactly what the log held up to
    // its last position.
    const copy = JSON.parse(taken.stdout) as { file: string; events: number; lastPosition: number; bytes: number };
    const committed = await store.readAll({ maxCount: 100_000 });
    expect(copy.lastPosition).toBeGreaterThanOrEqual(before);
    expect(copy).toEqual({
      file,
      events: committed.filter((event) => event.position <= copy.lastPosition).length,
      lastPosition: copy.lastPosition,
      bytes: statSync(file).size,
    });
    const again = await backup(file);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain(`${file} exists already: a backup never overwrites a file`);

    // and a project created after it
    expect((await app.request('POST', '/api/projects', { key, body: { name: 'After', domain: 'after.example' } })).status).toBe(201);
    expect(await projectNames(app, key)).toEqual(['After', 'Before']);
    await app.close({ keepData: true });
    app = undefined;

    // When the copy is put back in place of the log (its WAL files with it)
    for (const suffix of ['-wal', '-shm']) rmSync(join(dataDir, `${EMBEDDED_EVENT_STORE_FILE}${suffix}`), { force: true });
    copyFileSync(file, join(dataDir, EMBEDDED_EVENT_STORE_FILE));

    // then the read models, which hold "After", are ahead of the log, and the start says to rebuild them:
    // the next events would take positions they count as written, and never be projected
    const refusal = await startTestApp({ dataDir, database }).catch((error: Error) => error);
    const [, written, logEnd] =
      /The read models \(read-models\) are written up to position (\d+) of the event log, but the log ends at (\d+): .*npm run projections:rebuild/.exec(
        String((refusal as Error).message),
      ) ?? [];
    expect([written, logEnd]).toEqual([expect.any(String), expect.any(String)]);

    // and still when the restored log has grown past the read models' checkpoint before the start (the
    // operator's CLI opening accounts, say): the event at that position is another one. Before, that
    // start went ahead, and the read models never projected the events up to their checkpoint.
    const restored = await createEventStore({ sqlitePath: join(dataDir, EMBEDDED_EVENT_STORE_FILE) });
    for (let position = Number(logEnd); position <= Number(written); position++)
      await restored.appendToStream(`account-${randomBytes(12).toString('hex')}`, [{ id: randomUUID(), type: 'Noted', data: {} }], {
        expectedRevision: 'no_stream',
      });
    expect(await restored.lastPosition()).toBeGreaterThan(Number(written));
    await restored.close();
    await expect(startTestApp({ dataDir, database })).rejects.toThrow(
      new RegExp(
        `written up to position ${written} of the event log, where they saw event \\S+, but this log holds event \\S+ there: .*npm run projections:rebuild`,
      ),
    );

    // After the rebuild (what `npm run projections:rebuild` does) the service starts from the restored log
    const readStore = await createReadStore({ database, chdbPath: processChdbPath() });
    await resetReadModels(readStore, ALL_PROJECTIONS);
    await readStore.close();
    app = await startTestApp({ dataDir, database });
    expect(await projectNames(app, key)).toEqual(['Before']);
    // and projects what comes next
    expect((await app.request('POST', '/api/projects', { key, body: { name: 'Later', domain: 'later.example' } })).status).toBe(201);
    expect(await projectNames(app, key)).toEqual(['Before', 'Later']);
  }, 120_000);
});
