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

  it('shares one path, refuses another while any lease is held, and frees it when the last is released', () => {
    const first = acquireChdbEngine(join(root, 'a'));
    const second = acquireChdbEngine(join(root, 'x', '..', 'a'));

    expect(second.path).toBe(first.path);
    expect(() => acquireChdbEngine(join(root, 'b'))).toThrow(/already runs chDB on .*\/a\. chDB runs one ClickHouse engine per process/);

    first.release();
    first.release(); // idempotent: must not free the engine while `second` still holds it
    expect(() => acquireChdbEngine(join(root, 'b'))).toThrow(/one ClickHouse engine per process/);

    second.release();
    const elsewhere = acquireChdbEngine(join(root, 'b'));
    expect(elsewhere.path).toBe(join(root, 'b'));
    elsewhere.release();
  });

  it('refuses to open clients on a released lease', () => {
    const lease = acquireChdbEngine(join(root, 'a'));
    lease.release();

    expect(() => lease.openClient('default')).toThrow(/released/);
  });
});
