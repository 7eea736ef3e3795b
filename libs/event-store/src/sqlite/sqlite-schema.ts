import type { Database } from 'better-sqlite3';

/** Bumped whenever the tables below change, so a later version can migrate an older file. */
const SCHEMA_VERSION = 2;

/**
 * `position` is AUTOINCREMENT rather than a plain rowid on purpose: a plain rowid reuses the
 * largest value once its row is deleted, and a subscriber whose checkpoint is past that value
 * would then skip the new event. AUTOINCREMENT never hands out a position twice.
 *
 * `deleted_streams` remembers where a deleted stream's revisions stopped, so that a stream created
 * again under the same name continues after them, as EventStoreDB's soft delete does. It holds no
 * event content.
 *
 * `consumer_groups` and `consumer_group_offers` hold the consumer groups' progress and leases (see
 * `sqlite-consumer-group.ts`). Version 2 added them; a version 1 file gains them on open.
 */
const CREATE_TABLES = `
  CREATE TABLE IF NOT EXISTS events (
    position     INTEGER PRIMARY KEY AUTOINCREMENT,
    stream_name  TEXT    NOT NULL,
    revision     INTEGER NOT NULL,
    event_id     TEXT    NOT NULL,
    type         TEXT    NOT NULL,
    data         TEXT    NOT NULL,
    metadata     TEXT    NOT NULL,
    recorded_at  TEXT    NOT NULL,
    UNIQUE (stream_name, revision),
    UNIQUE (stream_name, event_id)
  );
  CREATE TABLE IF NOT EXISTS deleted_streams (
    stream_name   TEXT    PRIMARY KEY,
    last_revision INTEGER NOT NULL
  ) WITHOUT ROWID;
  CREATE TABLE IF NOT EXISTS consumer_groups (
    group_name    TEXT    PRIMARY KEY,
    stream_prefix TEXT    NOT NULL,
    scanned_up_to INTEGER NOT NULL
  ) WITHOUT ROWID;
  CREATE TABLE IF NOT EXISTS consumer_group_offers (
    group_name  TEXT    NOT NULL,
    position    INTEGER NOT NULL,
    attempts    INTEGER NOT NULL,
    state       TEXT    NOT NULL CHECK (state IN ('offered', 'retry', 'parked')),
    lease_until INTEGER NOT NULL,
    owner_pid   INTEGER NOT NULL,
    owner_token TEXT    NOT NULL,
    PRIMARY KEY (group_name, position)
  ) WITHOUT ROWID;
`;

export interface SqliteConnectionSettings {
  busyTimeoutMs: number;
}

/**
 * WAL lets readers (subscriptions, the API) run while a writer commits, and busy_timeout makes a
 * process wait for another process's write lock instead of failing at once. synchronous stays at
 * FULL (the default): an acknowledged append must survive a power cut, not only a crash.
 */
export function prepareDatabase(db: Database, settings: SqliteConnectionSettings): void {
  db.pragma(`busy_timeout = ${Math.max(0, Math.floor(settings.busyTimeoutMs))}`);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma('foreign_keys = ON');

  // Two processes may open a new file at the same moment; IMMEDIATE makes one of them wait.
  db.transaction(() => {
    const version = db.pragma('user_version', { simple: true }) as number;
    if (version > SCHEMA_VERSION) {
      throw new Error(`Event store file has schema version ${version}; this build understands up to ${SCHEMA_VERSION}`);
    }
    db.exec(CREATE_TABLES);
    db.pragma(`user_version = ${SCHEMA_VERSION}`);
  }).immediate();
}
