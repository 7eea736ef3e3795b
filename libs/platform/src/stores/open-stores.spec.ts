import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
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

  it('stops the start naming CHDB_PATH when a file is in its place', async () => {
    const config = loadConfig({ DATA_DIR: join(dir, 'data'), CHDB_PATH: join(dir, 'a-file') });
    const opening = openStores(config);
    await expect(opening).rejects.toThrow(`CHDB_PATH "${join(dir, 'a-file')}" cannot be used as a directory: EEXIST: file already exists`);
  });
});
