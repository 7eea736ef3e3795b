import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { StartRefusal } from '@rank/platform/start-refusal';
import { runTypeScript, startAppProcess } from '../support/app-process';
import { TEST_ADMIN_TOKEN } from '../support/test-app';
import { startTestApp } from '../support/test-app';

/** A start that cannot go ahead says what to change, naming the variable, and prints no stack trace. */
describe('Refused starts', () => {
  let taken: Server;
  let port: number;
  const scratch = mkdtempSync(join(tmpdir(), 'rank-tracker-refused-'));
  beforeAll(async () => {
    taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    port = (taken.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise((resolve) => taken.close(resolve));
    rmSync(scratch, { recursive: true, force: true });
  });

  it('names PORT when another process listens on it, and HOST when it is not an address of this machine', async () => {
    const inUse = startTestApp({ env: { PORT: String(port) } });
    await expect(inUse).rejects.toBeInstanceOf(StartRefusal);
    await expect(inUse).rejects.toThrow(`PORT ${port} on HOST 127.0.0.1 is in use by another process: stop it, or set another PORT`);
    await expect(startTestApp({ env: { HOST: 'no-such-host.invalid' } })).rejects.toThrow(
      /^HOST no-such-host\.invalid is not an address of this machine \((ENOTFOUND|EAI_AGAIN)\)/,
    );
  });

  it('names PLANS_FILE when it cannot be read or is not a catalogue', async () => {
    const broken = join(scratch, 'plans.json');
    writeFileSync(broken, '{bad');
    for (const file of [broken, join(scratch, 'missing.json')]) {
      const starting = startTestApp({ env: { PLANS_FILE: file } });
      await expect(starting).rejects.toBeInstanceOf(StartRefusal);
      await expect(starting).rejects.toThrow(`PLANS_FILE ${file}: `);
    }
  });

  it('prints the refusal alone, without a stack trace, and exits 1', async () => {
    const run = await runTypeScript(
      'apps/api/src/main.ts',
      [],
      {
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: join(scratch, 'data'),
        CHDB_PATH: join(scratch, 'chdb'),
        ROLES: 'api,projections',
        LOG_LEVEL: 'error',
        GOOGLE_BASE_URL: 'http://127.0.0.1:9',
        PAGESPEED_BASE_URL: 'http://127.0.0.1:9',
      },
      90_000,
    );
    expect(run.code).toBe(1);
    // Nest logs the listen error on its own line first; the last line is the refusal, and no line is a stack frame.
    expect(run.stderr.trim().split('\n').at(-1)).toBe(
      `PORT ${port} on HOST 127.0.0.1 is in use by another process: stop it, or set another PORT`,
    );
    expect(run.stderr).not.toMatch(/^\s+at /m);
  }, 120_000);

  it('stops a projector whose OPS_PORT is taken after closing its stores: exit 1, never a crash or a hang in the embedded ClickHouse', async () => {
    // Before, the stores stayed open past the refusal: of 18 runs, 4 died of SIGSEGV and 4 never exited.
    for (const attempt of [1, 2]) {
      const run = await runTypeScript(
        'projections/src/main.ts',
        [],
        {
          OPS_PORT: String(port),
          HOST: '127.0.0.1',
          DATA_DIR: join(scratch, `projector-${attempt}`),
          CHDB_PATH: join(scratch, `projector-chdb-${attempt}`),
          LOG_LEVEL: 'error',
        },
        60_000,
      );
      expect({ attempt, code: run.code, refusal: run.stderr.trim().split('\n').at(-1) }).toEqual({
        attempt,
        code: 1,
        refusal: expect.stringMatching(new RegExp(`^OPS_PORT ${port} `)),
      });
    }
  }, 150_000);

  it('refuses a rebuild of a DATA_DIR without a log, and one beside the running service, saying to stop it', async () => {
    const rebuild = (env: Record<string, string>) =>
      runTypeScript('projections/src/rebuild.ts', [], { LOG_LEVEL: 'error', ...env }, 90_000);
    const mistyped = join(scratch, 'mistyped');
    // Before: it started an empty log there and "rebuilt 5 projections from 0 events", exit 0.
    const empty = await rebuild({ DATA_DIR: mistyped, CHDB_PATH: join(scratch, 'chdb-mistyped') });
    expect(empty.code).toBe(1);
    expect(empty.stderr.trim()).toBe(
      `No event store at ${join(mistyped, 'events.sqlite')}: check DATA_DIR. The rebuild reads an existing log; it never starts an empty one.`,
    );

    const dataDir = join(scratch, 'running');
    const chdbPath = join(scratch, 'chdb-running');
    const service = await startAppProcess({
      DATA_DIR: dataDir,
      CHDB_PATH: chdbPath,
      ADMIN_TOKEN: TEST_ADMIN_TOKEN,
      ROLES: 'api,projections',
    });
    try {
      // A second service on the same data is refused naming CHDB_PATH, without a stack trace (before: chDB's Error with its stack).
      const second = await runTypeScript(
        'apps/api/src/main.ts',
        [],
        { DATA_DIR: dataDir, CHDB_PATH: chdbPath, PORT: '0', HOST: '127.0.0.1', ROLES: 'api,projections', LOG_LEVEL: 'error' },
        90_000,
      );
      expect({ code: second.code, refusal: second.stderr.trim().split('\n').at(-1) }).toEqual({
        code: 1,
        refusal: `  - CHDB_PATH ${JSON.stringify(chdbPath)}: Cannot open chDB at ${chdbPath}: another process (PID ${service.process.pid}) runs ClickHouse on this directory. A ClickHouse data directory serves one process: give each process its own CHDB_PATH (a scraper started apart from the api, say), or run the roles in one process.`,
      });
      expect(second.stderr).not.toMatch(/^\s+at /m);

      const beside = await rebuild({ DATA_DIR: dataDir, CHDB_PATH: chdbPath });
      expect(beside.code).toBe(1);
      // chDB's native code prints its own line (Code: 76, cannot lock the status file) first.
      expect(beside.stderr.trim().split('\n').at(-1)).toBe(
        `Stop the service first: another process (PID ${service.process.pid}) runs ClickHouse on ${chdbPath}, and the rebuild empties and rewrites the read models it reads there.`,
      );
    } finally {
      await service.kill('SIGTERM');
    }
  }, 180_000);
});
