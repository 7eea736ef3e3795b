import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, loadConfig } from '../config/app-config';
import { openEventStore, openStores } from './open-stores';

describe('opening the embedded stores where their directories cannot be', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'rank-tracker-stores-'));
    writeFileSync(join(dir, 'a-file'), '');
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('stops the start naming DATA_DIR when it lies under a file', async () => {
    const config = loadConfig({ DATA_DIR: join(dir, 'a-file', 'data') });
    const opening = openEventStore(config);
    await expect(opening).rejects.toBeInstanceOf(ConfigError);
    await expect(opening).rejects.toThrow(
      `DATA_DIR "${join(dir, 'a-file', 'data')}" cannot be used as a directory: ENOTDIR: not a directory, mkdir '${join(dir, 'a-file', 'data')}'`,
    );
  });

  it('stops the start naming DATA_DIR and CHDB_PATH when they exist but cannot be written (a read-only disk)', async () => {
    // Root writes through permissions, so for root the directory is a read-only mount; for anyone else, mode 0555.
    const readOnly = join(dir, 'read-only');
    mkdirSync(readOnly);
    const asRoot = process.getuid?.() === 0;
    if (asRoot) execFileSync('mount', ['-t', 'tmpfs', '-o', 'ro,size=1m', 'tmpfs', readOnly]);
    else chmodSync(readOnly, 0o555);
    try {
      const why = asRoot ? 'EROFS: read-only file system' : 'EACCES: permission denied';
      // Before: a SQLite error with its stack; for chDB, "this process already runs chDB on another data directory".
      await expect(openEventStore(loadConfig({ DATA_DIR: readOnly }))).rejects.toThrow(
        `DATA_DIR "${readOnly}" cannot be used as a directory: ${why}, access '${readOnly}'`,
      );
      await expect(openStores(loadConfig({ DATA_DIR: join(dir, 'data-ro'), CHDB_PATH: readOnly }))).rejects.toThrow(
        `CHDB_PATH "${readOnly}" cannot be used as a directory: ${why}, access '${readOnly}'`,
      );
      // A directory still to be made there: the reason is the disk's, not the ENOENT a recursive mkdir says.
      const below = join(readOnly, 'srv', 'data');
      await expect(openEventStore(loadConfig({ DATA_DIR: below }))).rejects.toThrow(
        `DATA_DIR "${below}" cannot be used as a directory: ${readOnly}: ${why}, access '${readOnly}'`,
      );
    } finally {
      if (asRoot) execFileSync('umount', [readOnly]);
      else chmodSync(readOnly, 0o755);
    }
  });

  it('stops the start naming DATA_DIR when its disk is full, not with SQLite\'s "disk I/O error" and its stack', async () => {
    // A full disk of its own: a small tmpfs (root, as the read-only case above).
    const small = join(dir, 'small');
    mkdirSync(small);
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=2m', 'tmpfs', small]);
    try {
      const config = loadConfig({ DATA_DIR: small });
      await (await openEventStore(config)).close();
      try {
        execFileSync('dd', ['if=/dev/zero', `of=${join(small, 'filler')}`, 'bs=64k'], { stdio: 'ignore' });
      } catch {
        // dd stops when the disk is full: that is the point.
      }
      const opening = openEventStore(config);
      await expect(opening).rejects.toBeInstanceOf(ConfigError);
      await expect(opening).rejects.toThrow(
        new RegExp(
          `^Invalid configuration:\\n  - DATA_DIR "${small}": the event store cannot be opened \\(SQLITE_(FULL|IOERR\\w*): .*, 0 KiB free on its disk\\); free space on its disk$`,
        ),
      );
    } finally {
      execFileSync('umount', [small]);
    }
  });

  it('stops the start naming CLICKHOUSE_URL, without its credentials, when no server answers there', async () => {
    // Before: the client's ECONNREFUSED with its stack trace.
    const opening = openStores(loadConfig({ DATA_DIR: join(dir, 'data-ch'), CLICKHOUSE_URL: 'http://user:secret@127.0.0.1:9' }));
    await expect(opening).rejects.toBeInstanceOf(ConfigError);
    await expect(opening).rejects.toThrow(
      'CLICKHOUSE_URL http://127.0.0.1:9 cannot be reached (ECONNREFUSED): start ClickHouse there, or correct the URL',
    );
  });

  it('stops the start naming EVENTSTORE_CONNECTION_STRING, without its credentials, when no server answers there', async () => {
    // Before: the client's "14 UNAVAILABLE" with its stack trace, once the app's first read ran.
    const opening = openEventStore(
      loadConfig({ DATA_DIR: join(dir, 'data-esdb'), EVENTSTORE_CONNECTION_STRING: 'esdb://admin:changeit@127.0.0.1:9?tls=false' }),
    );
    await expect(opening).rejects.toBeInstanceOf(ConfigError);
    await expect(opening).rejects.toThrow(
      'EVENTSTORE_CONNECTION_STRING esdb://127.0.0.1:9 cannot be reached (ECONNREFUSED): start EventStoreDB there, or correct the connection string',
    );
  });

  it('shows no part of a password holding / or ? when the server cannot be reached', async () => {
    // Before: "esdb://admin:SECRET cannot be reached", the password printed as a host up to its "/".
    for (const password of ['SECRET/ES/PASS', 'SECRET:ES?PASS']) {
      const opening = openEventStore(
        loadConfig({ DATA_DIR: join(dir, 'data-esdb'), EVENTSTORE_CONNECTION_STRING: `esdb://admin:${password}@127.0.0.1:9?tls=false` }),
      );
      await expect(opening).rejects.toThrow(
        'EVENTSTORE_CONNECTION_STRING esdb://127.0.0.1:9 cannot be reached (ECONNREFUSED): start EventStoreDB there, or correct the connection string',
      );
    }
  });

  it('stops the start naming CHDB_PATH when a file is in its place', async () => {
    const config = loadConfig({ DATA_DIR: join(dir, 'data'), CHDB_PATH: join(dir, 'a-file') });
    const opening = openStores(config);
    await expect(opening).rejects.toThrow(`CHDB_PATH "${join(dir, 'a-file')}" cannot be used as a directory: EEXIST: file already exists`);
  });
});
