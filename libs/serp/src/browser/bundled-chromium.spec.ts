import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { regularFilesOf, unpackChromium, unpackedFolder } from './bundled-chromium';
import { bundledChromium } from './chromium';

const bundle = bundledChromium()!;
const versionOf = (binary: string) => execFileSync(binary, ['--version'], { encoding: 'utf8', timeout: 20_000 });

describe('unpacking the bundled Chromium', () => {
  let into: string;
  beforeEach(() => (into = mkdtempSync(join(tmpdir(), 'rank-tracker-unpack-'))));
  afterEach(() => rmSync(into, { recursive: true, force: true }));

  it('unpacks once when several launchers ask at once, and each gets a whole browser', async () => {
    // Before, the second launcher found the first one's half-written file and launched it (spawn ETXTBSY).
    const paths = await Promise.all([1, 2, 3].map(() => unpackChromium(bundle, into, { pollMs: 20 })));
    expect(new Set(paths).size).toBe(1);
    expect(paths[0]).toBe(join(unpackedFolder(into, bundle.version), 'chromium'));
    expect(versionOf(paths[0]!)).toMatch(/Chromium \d+/);
    // The GL libraries it loads from beside itself, and nothing left of the unpacking.
    expect(readdirSync(unpackedFolder(into, bundle.version))).toEqual(expect.arrayContaining(['chromium', 'libGLESv2.so', 'libEGL.so']));
    expect(readdirSync(into)).toEqual([`rank-tracker-chromium-${bundle.version}`]);
  }, 120_000);

  it('replaces what an unpack killed part-way left, and breaks its lock once stale', async () => {
    const folder = unpackedFolder(into, bundle.version);
    mkdirSync(folder);
    writeFileSync(join(folder, 'chromium'), 'half a browser', { mode: 0o755 });
    mkdirSync(`${folder}.partial-999999-0`);
    writeFileSync(`${folder}.lock`, '');
    const old = new Date(Date.now() - 60_000);
    utimesSync(`${folder}.lock`, old, old);
    const binary = await unpackChromium(bundle, into, { pollMs: 20, staleLockMs: 30_000 });
    expect(versionOf(binary)).toMatch(/Chromium \d+/);
    expect(readdirSync(into)).toEqual([`rank-tracker-chromium-${bundle.version}`]);
  }, 120_000);

  it('breaks at once the lock of a process that is gone', async () => {
    const folder = unpackedFolder(into, bundle.version);
    // The id of a process that has ended.
    const ended = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    writeFileSync(`${folder}.lock`, ended.stdout);
    const started = Date.now();
    const binary = await unpackChromium(bundle, into, { pollMs: 20, staleLockMs: 600_000 });
    expect(versionOf(binary)).toMatch(/Chromium \d+/);
    // Before, it waited for the lock to be 5 minutes old.
    expect(Date.now() - started).toBeLessThan(60_000);
  }, 120_000);

  it('waits for a fresh lock instead of unpacking beside its holder', async () => {
    const folder = unpackedFolder(into, bundle.version);
    writeFileSync(`${folder}.lock`, '');
    let done = false;
    const waiting = unpackChromium(bundle, into, { pollMs: 20 }).then((path) => ((done = true), path));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect({ done, unpacked: existsSync(folder) }).toEqual({ done: false, unpacked: false });
    // The holder finishes: the waiter takes its folder.
    mkdirSync(folder);
    writeFileSync(join(folder, '.complete'), '');
    rmSync(`${folder}.lock`);
    expect(await waiting).toBe(join(folder, 'chromium'));
  });

  it('reads only plain regular files from the libraries archive', () => {
    const entry = (name: string, content: string, type = '0') => {
      const header = Buffer.alloc(512);
      header.write(name, 0, 'latin1');
      header.write('0000755\0', 100, 'latin1');
      header.write(`${content.length.toString(8).padStart(11, '0')}\0`, 124, 'latin1');
      header.write(type, 156, 'latin1');
      const body = Buffer.alloc(Math.ceil(content.length / 512) * 512);
      body.write(content, 'latin1');
      return Buffer.concat([header, body]);
    };
    const archive = Buffer.concat([
      entry('libA.so', 'a'.repeat(600)),
      entry('../escape.so', 'x'),
      entry('dir', '', '5'),
      Buffer.alloc(1024),
    ]);
    expect(regularFilesOf(archive).map(({ name, mode, content }) => ({ name, mode, size: content.length }))).toEqual([
      { name: 'libA.so', mode: 0o755, size: 600 },
    ]);
  });
});
