import Database from 'better-sqlite3';
import { existsSync, statSync } from 'node:fs';

/** The most pages one backup step may copy (the driver's bound): every page that is left. */
const ALL_REMAINING_PAGES = 0x7fffffff;

export interface EventStoreBackup {
  file: string;
  /** Events in the copy, and the position of the last: what a restore brings back. */
  events: number;
  lastPosition: number;
  bytes: number;
}

/**
 * Copies the embedded event store to `destination` while the service may be appending to it:
 * SQLite's online backup copies the pages of one read transaction, so the copy holds every append
 * committed before it began and none after, whatever other processes write meanwhile (a plain `cp`
 * of a file in WAL mode may miss commits still in its `-wal` file, or mix two moments). The copy is
 * then made a single file (its journal out of WAL mode), checked with `PRAGMA integrity_check`, and
 * counted. A backup never overwrites a file.
 */
export async function backupEventStore(source: string, destination: string): Promise<EventStoreBackup> {
  if (!existsSync(source)) throw new Error(`no event store at ${source}`);
  if (existsSync(destination)) throw new Error(`${destination} exists already: a backup never overwrites a file`);
  const live = new Database(source, { fileMustExist: true });
  try {
    live.pragma('busy_timeout = 5000');
    // All pages in one step. Copied a step at a time (the driver's default: 100 pages, yielding in
    // between), any append by another connection restarts the copy from the first page, and a
    // service appending every few milliseconds kept a 400 MB copy from ever finishing. In WAL mode the
    // one step's read transaction holds no writer up.
    await live.backup(destination, { progress: () => ALL_REMAINING_PAGES });
  } catch (error) {
    // SQLite's "unable to open database file" names neither file, nor whether it was the store or the copy.
    throw new Error(`could not write the backup to ${destination}: ${(error as Error).message}`, { cause: error });
  } finally {
    live.close();
  }
  const copy = new Database(destination, { fileMustExist: true });
  try {
    copy.pragma('journal_mode = DELETE');
    const integrity = copy.pragma('integrity_check', { simple: true });
    if (integrity !== 'ok') throw new Error(`the copy at ${destination} fails SQLite's integrity check: ${String(integrity)}`);
    const { events, last } = copy.prepare('SELECT count(*) AS events, coalesce(max(position), 0) AS last FROM events').get() as {
      events: number;
      last: number;
    };
    return { file: destination, events, lastPosition: last, bytes: statSync(destination).size };
  } finally {
    copy.close();
  }
}
