import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { acquireChdbEngine } from './chdb-engine';

// Only the process-wide record is exercised here (no engine is started: no client is opened), so
// switching paths cannot disturb the chDB engine other test files in this worker use.
describe('the process-wide chDB engine record', () => {
  let root: string;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'chdb-engine-record-'));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('shares one path, refuses another while any lease is held, and frees it when the last is released', async () => {
    const first = acquireChdbEngine(join(root, 'a'));
    const second = acquireChdbEngine(join(root, 'x', '..', 'a'));

    expect(second.path).toBe(first.path);
    expect(() => acquireChdbEngine(join(root, 'b'))).toThrow(/already runs chDB on .*\/a\. chDB runs one ClickHouse engine per process/);

    await first.release();
    await first.release(); // idempotent: must not free the engine while `second` still holds it
    expect(() => acquireChdbEngine(join(root, 'b'))).toThrow(/one ClickHouse engine per process/);

    await second.release();
    const elsewhere = acquireChdbEngine(join(root, 'b'));
    expect(elsewhere.path).toBe(join(root, 'b'));
    await elsewhere.release();
  });

  it('refuses to open clients on a released lease', async () => {
    const lease = acquireChdbEngine(join(root, 'a'));
    await lease.release();

    expect(() => lease.openClient('default')).toThrow(/released/);
  });
});

describe('a chDB directory another process runs', () => {
  it('is refused naming that process and saying each process needs its own CHDB_PATH', async () => {
    const root = mkdtempSync(join(tmpdir(), 'chdb-engine-owned-'));
    const path = join(root, 'clickhouse');
    // Given another process running ClickHouse on the directory (as a second service on the same DATA_DIR meets it)
    const owner = spawn(
      process.execPath,
      [
        '-e',
        "require('chdb/connection').createChdbConnection({ path: process.argv[1] }); console.log('ready'); setInterval(() => {}, 1000);",
        path,
      ],
      { cwd: process.cwd(), stdio: ['ignore', 'pipe', 'inherit'] },
    );
    try {
      await once(owner.stdout!, 'data');
      // When this process opens it, then the refusal names the owner rather than a path of this process
      const lease = acquireChdbEngine(path);
      try {
        expect(() => lease.openClient('default')).toThrow(
          `Cannot open chDB at ${path}: another process (PID ${owner.pid}) runs ClickHouse on this directory. A ClickHouse data directory serves one process: give each process its own CHDB_PATH`,
        );
      } finally {
        await lease.release();
      }
    } finally {
      owner.kill('SIGKILL');
      await once(owner, 'exit');
      rmSync(root, { recursive: true, force: true });
    }
  }, 30_000);
});
