import Database from 'better-sqlite3';
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import type { EventStore } from '../event-store.port';
import { SqliteEventStore } from './sqlite-event-store';
import { backupEventStore } from './backup';

/** A check's worth of results: about 7 KB of JSON, as the service's check events carry. */
const RESULTS = {
  results: Array.from({ length: 50 }, (_, i) => ({
    position: i + 1,
    url: `https://example.com/${i}/${'p'.repeat(60)}`,
    title: 'A result '.repeat(8),
  })),
};

describe('backupEventStore', () => {
  let dir: string;
  let store: EventStore;
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'rank-tracker-backup-spec-'));
    store = new SqliteEventStore(join(dir, 'events.sqlite'));
    for (let i = 0; i < 8; i++) {
      const events = Array.from({ length: 250 }, () => ({ id: randomUUID(), type: 'CheckCompleted', data: RESULTS }));
      await store.appendToStream(`checks-${i}`, events, { expectedRevision: 'any' });
    }
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('finishes while another connection appends every millisecond, with every event committed before it began', async () => {
    // Given a writer that never pauses for long
    let appending = true;
    const writer = (async () => {
      while (appending) {
        await store.appendToStream('live', [{ id: randomUUID(), type: 'Live', data: RESULTS }], { expectedRevision: 'any' });
        await new Promise((resolve) => setTimeout(resolve, 1));
      }
    })();
    await new Promise((resolve) => setTimeout(resolve, 20));
    const before = await store.lastPosition();
    // When a backup is taken (copied a step at a time, each append restarted it, and it never finished)
    const copy = join(dir, 'copy.sqlite');
    const deadline = new Promise<never>((_, reject) => setTimeout(() => reject(new Error('the backup did not finish in 15 s')), 15_000));
    const report = await Promise.race([backupEventStore(join(dir, 'events.sqlite'), copy), deadline]);
    appending = false;
    await writer;

    // Then the copy holds at least what was committed before it began, in one file, as it reports
    expect(report.lastPosition).toBeGreaterThanOrEqual(before);
    expect(report.events).toBeGreaterThanOrEqual(2_000);
    expect(report.bytes).toBe(statSync(copy).size);
    const opened = new Database(copy, { readonly: true });
    try {
      expect(opened.pragma('journal_mode', { simple: true })).toBe('delete');
      expect(opened.prepare('SELECT count(*) AS n, max(position) AS last FROM events').get()).toEqual({
        n: report.events,
        last: report.lastPosition,
      });
    } finally {
      opened.close();
    }
  }, 30_000);

  it('never writes over a file, nor copies from where no event store is', async () => {
    const taken = join(dir, 'taken.sqlite');
    writeFileSync(taken, 'precious');
    await expect(backupEventStore(join(dir, 'events.sqlite'), taken)).rejects.toThrow(`${taken} exists already`);
    expect(statSync(taken).size).toBe('precious'.length);
    await expect(backupEventStore(join(dir, 'nowhere.sqlite'), join(dir, 'copy.sqlite'))).rejects.toThrow('no event store at');
  });

  it('names the file it could not write, and writes nothing there', async () => {
    // Before, SQLite's "unable to open database file" named neither the store nor the copy.
    const underAFile = join(dir, 'taken-too.sqlite', 'copy.sqlite');
    writeFileSync(join(dir, 'taken-too.sqlite'), 'a file, not a directory');
    await expect(backupEventStore(join(dir, 'events.sqlite'), underAFile)).rejects.toThrow(
      `could not write the backup to ${underAFile}: unable to open database file`,
    );
    expect(existsSync(underAFile)).toBe(false);
  });
});
