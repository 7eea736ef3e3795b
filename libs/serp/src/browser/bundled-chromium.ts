import {
  closeSync,
  createReadStream,
  createWriteStream,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { threadId } from 'node:worker_threads';
import { brotliDecompress, createBrotliDecompress } from 'node:zlib';
import { promisify } from 'node:util';

/** The bundled package's compressed browser: where its files are and which version they are. */
export interface ChromiumBundle {
  /** The package's `bin` folder: `chromium.br` and `swiftshader.tar.br` (the GL libraries it loads from beside itself). */
  binDir: string;
  version: string;
}

export interface UnpackOptions {
  /** How often a waiting unpack looks whether the one unpacking is done. */
  pollMs?: number;
  /** A lock older than this is a dead unpacker's (killed mid-way): it is broken. A lock whose process is gone is broken at once. */
  staleLockMs?: number;
}

/** The folder a version unpacks into, inside `into` (the temp directory): one per version, so an upgrade unpacks its own. */
export const unpackedFolder = (into: string, version: string) => join(into, `rank-tracker-chromium-${version}`);

/** Written last into an unpacked folder: a folder without it is not used. */
const COMPLETE = '.complete';

/**
 * Unpacks the bundled Chromium once per machine and answers its binary's path. Every launcher calls
 * this: the browser threads, Lighthouse's thread and other processes on the machine, at once on a
 * first run. One of them takes a lock file and unpacks into a folder of its own, marked complete
 * and renamed into place; the others wait for that folder. Before, each found the package's fixed
 * `/tmp/chromium` as soon as the first had begun writing it, and launched a half-written file
 * (`spawn ETXTBSY`); and a process killed while unpacking left such a file for good. The lock holds
 * its process's id: a lock whose process is gone is broken at once, any other after `staleLockMs`.
 */
export async function unpackChromium(bundle: ChromiumBundle, into: string, options: UnpackOptions = {}): Promise<string> {
  const pollMs = options.pollMs ?? 250;
  const staleLockMs = options.staleLockMs ?? 5 * 60_000;
  const folder = unpackedFolder(into, bundle.version);
  const binary = join(folder, 'chromium');
  const lockPath = `${folder}.lock`;
  mkdirSync(into, { recursive: true });
  for (;;) {
    if (existsSync(join(folder, COMPLETE))) return binary;
    const lock = tryLock(lockPath);
    if (lock !== undefined) {
      try {
        // Done by another while this one waited for the lock.
        if (existsSync(join(folder, COMPLETE))) return binary;
        // Folders of unpacks killed part-way (each of ~200 MB): no one else unpacks while the lock is held.
        for (const name of readdirSync(into))
          if (name.startsWith(`${basename(folder)}.partial-`)) rmSync(join(into, name), { recursive: true, force: true });
        const staging = `${folder}.partial-${process.pid}-${threadId}`;
        mkdirSync(staging);
        await unpackInto(bundle.binDir, staging);
        writeFileSync(join(staging, COMPLETE), `${bundle.version}\n`);
        // What is there without the mark is an unpack killed before ours.
        rmSync(folder, { recursive: true, force: true });
        renameSync(staging, folder);
        return binary;
      } finally {
        closeSync(lock);
        rmSync(lockPath, { force: true });
      }
    }
    if (ageOf(lockPath) > staleLockMs || holderIsGone(lockPath)) rmSync(lockPath, { force: true });
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
}

/** The lock's descriptor when this caller made it (its process id written in it); undefined when another holds it. */
function tryLock(path: string): number | undefined {
  let lock: number;
  try {
    lock = openSync(path, 'wx');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return undefined;
    throw error;
  }
  writeSync(lock, String(process.pid));
  return lock;
}

/**
 * Whether the process that took the lock has ended (killed while unpacking): its id is in the lock.
 * An empty lock (taken a moment ago, its id not written yet) or one of another machine's process
 * (a shared temp directory) waits for its age instead.
 */
function holderIsGone(path: string): boolean {
  let pid: number;
  try {
    pid = Number(readFileSync(path, 'utf8'));
  } catch {
    return false;
  }
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

function ageOf(path: string): number {
  try {
    return Date.now() - statSync(path).mtimeMs;
  } catch {
    return 0;
  }
}

async function unpackInto(binDir: string, folder: string): Promise<void> {
  await pipeline(
    createReadStream(join(binDir, 'chromium.br')),
    createBrotliDecompress(),
    createWriteStream(join(folder, 'chromium'), { mode: 0o755 }),
  );
  const libraries = await promisify(brotliDecompress)(await readFile(join(binDir, 'swiftshader.tar.br')));
  for (const file of regularFilesOf(libraries)) await writeFile(join(folder, file.name), file.content, { mode: file.mode });
}

/**
 * The regular files of a tar archive (ustar headers of 512 bytes, contents padded to 512): the GL
 * libraries come as one flat archive of five files, and nothing else here reads tar.
 */
export function regularFilesOf(archive: Buffer): { name: string; mode: number; content: Buffer }[] {
  const files: { name: string; mode: number; content: Buffer }[] = [];
  for (let at = 0; at + 512 <= archive.length;) {
    const header = archive.subarray(at, at + 512);
    if (header.every((byte) => byte === 0)) break;
    const field = (start: number, length: number) =>
      header
        .toString('latin1', start, start + length)
        .replace(/\0.*$/s, '')
        .trim();
    const size = parseInt(field(124, 12) || '0', 8);
    const type = field(156, 1);
    const name = field(0, 100);
    const content = archive.subarray(at + 512, at + 512 + size);
    // Only plain names: an entry cannot write outside the folder.
    if ((type === '0' || type === '') && /^[\w.+-]+$/.test(name)) files.push({ name, mode: parseInt(field(100, 8), 8) & 0o777, content });
    at += 512 + Math.ceil(size / 512) * 512;
  }
  return files;
}
