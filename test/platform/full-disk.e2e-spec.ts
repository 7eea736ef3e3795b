import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestApp, TestApp } from '../support/test-app';

/**
 * The event store's disk fills up while the service runs (DATA_DIR on a small tmpfs of its own, as
 * root, like open-stores.spec.ts's full-disk start). Writes must say so, write nothing, and work
 * again once there is room; reads go on.
 */
describe('A full DATA_DIR disk', () => {
  let dir: string;
  let small: string;
  let app: TestApp;
  let key: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'rank-full-disk-'));
    small = join(dir, 'small');
    mkdirSync(small);
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=4m', 'tmpfs', small]);
    app = await startTestApp({ dataDir: small });
    key = (await app.createAccount()).apiKey;
  }, 60_000);
  afterAll(async () => {
    try {
      // Room again first: the service's closing writes checkpoints.
      rmSync(join(small, 'filler'), { force: true });
      await app?.close();
    } finally {
      // Unmounted even when the closing fails, so that no tmpfs outlives the run.
      execFileSync('umount', [small]);
      rmSync(dir, { recursive: true, force: true });
    }
  });

  const fill = () => {
    try {
      execFileSync('dd', ['if=/dev/zero', `of=${join(small, 'filler')}`, 'bs=64k'], { stdio: 'ignore' });
    } catch {
      // dd stops when the disk is full: that is the point.
    }
  };

  it("answers writes the spec's 500 with a message saying why (not 'Internal server error'), writes nothing, and writes again once there is room", async () => {
    const before = await app.request('POST', '/api/projects', { key, body: { name: 'Before', domain: 'before.example' } });
    expect(before.status).toBe(201);
    fill();
    let refused;
    // The WAL may still take a page or two: the disk is full once a write fails.
    for (let i = 0; i < 50; i++) {
      refused = await app.request('POST', '/api/projects', { key, body: { name: `Full ${i}`, domain: `full${i}.example` } });
      if (refused.status !== 201) break;
    }
    expect({ status: refused!.status, body: refused!.body }).toEqual({
      status: 500,
      body: {
        success: false,
        message:
          'The service cannot store anything now: the disk of its event store is full. Nothing was written; try again once there is room.',
      },
    });
    const listed = await app.request('GET', '/api/projects', { key });
    expect(listed.status).toBe(200);
    expect(listed.body.projects.map((p: { name: string }) => p.name)).not.toContain(refused!.body.name);

    rmSync(join(small, 'filler'));
    const after = await app.request('POST', '/api/projects', { key, body: { name: 'After', domain: 'after.example' } });
    expect(after.status).toBe(201);
  });
});
