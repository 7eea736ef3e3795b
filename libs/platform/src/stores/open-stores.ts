import { accessSync, constants, existsSync, mkdirSync, statfsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createEventStore } from '@rank/event-store/create-event-store';
import type { EventStore } from '@rank/event-store/event-store.port';
import { ChdbDirectoryInUseError } from '@rank/read-store/chdb-engine';
import { createReadStore } from '@rank/read-store/create-read-store';
import { loadMigrationsFromDir } from '@rank/read-store/migrations';
import type { ReadStore } from '@rank/read-store/read-store.port';
import { AppConfig, ConfigError } from '../config/app-config';
import { StartRefusal } from '../start-refusal';
import { repositoryPath } from '../repository-path';
import type { Metrics } from '../metrics/metrics';
import { timeAppends } from '../metrics/timed-event-store';
import { UNREACHABLE_CODES } from './unreachable-store';
import { withoutUserinfo } from '@rank/domain/secret-text';

export interface Stores {
  eventStore: EventStore;
  readStore: ReadStore;
}

/** The embedded event store's file, under DATA_DIR. */
export const EMBEDDED_EVENT_STORE_FILE = 'events.sqlite';

/**
 * The event store alone, for an app that never reads ClickHouse (the scraper). With `metrics`, its
 * appends are timed (rank_event_store_append_seconds).
 */
export async function openEventStore(config: AppConfig, metrics?: Metrics): Promise<EventStore> {
  usableDirectory('DATA_DIR', config.dataDir);
  const store = await createEventStore({
    eventStoreConnectionString: config.eventStoreConnectionString,
    sqlitePath: join(config.dataDir, EMBEDDED_EVENT_STORE_FILE),
  }).catch((error: unknown) => {
    throw unopenableLog(error, config.dataDir) ?? error;
  });
  if (config.eventStoreConnectionString !== undefined) await answersAt(store, config.eventStoreConnectionString);
  return metrics ? timeAppends(store, metrics) : store;
}

/**
 * The EventStoreDB client connects on its first call, so a server that is not there would stop the
 * start later with the client's error and a stack trace. One read of the log's end asks first.
 */
async function answersAt(store: EventStore, connectionString: string): Promise<void> {
  try {
    await store.lastPosition();
  } catch (error) {
    await store.close().catch(() => undefined);
    if ((error as { type?: unknown } | null)?.type !== 'unavailable') throw error;
    const cause = /\b(E[A-Z]{3,})\b/.exec(error instanceof Error ? error.message : '')?.[1] ?? 'unavailable';
    throw serverNotReached(
      'EVENTSTORE_CONNECTION_STRING',
      withoutCredentials(connectionString),
      cause,
      'EventStoreDB',
      'connection string',
    );
  }
}

/**
 * The scheme and hosts of a connection string, without its user, password or settings. The user and
 * password are cut first up to the last `@`: a password may hold `/` or `?` (a generated one often
 * does), which a pattern stopping there would have printed as a host.
 */
function withoutCredentials(connectionString: string): string {
  const match = /^([a-z+]+:\/\/)(?:\*\*\*@)?([^/?]*)/i.exec(withoutUserinfo(connectionString.trim()));
  return match ? `${match[1]}${match[2]}` : 'as set';
}

/**
 * The ClickHouse migrations of the read models, applied at start, each once. Each bounded context keeps
 * the SQL of its own tables in `libs/<context>/migrations`; the numbers are one sequence across them.
 */
export const READ_MODEL_MIGRATION_DIRS = ['accounts', 'domains', 'projector', 'projects', 'research', 'tracking'].map((lib) =>
  repositoryPath('libs', lib, 'migrations'),
);

export const readModelMigrations = () => READ_MODEL_MIGRATION_DIRS.flatMap((dir) => loadMigrationsFromDir(dir));

/**
 * Opens the event store and the read store the configuration names (embedded ones under DATA_DIR
 * by default) and brings the read models' schema up to date.
 */
export async function openStores(config: AppConfig, metrics?: Metrics): Promise<Stores> {
  const eventStore = await openEventStore(config, metrics);
  try {
    if (config.clickhouse.url === undefined) usableDirectory('CHDB_PATH', config.chdbPath);
    const readStore = await createReadStore({
      clickhouseUrl: config.clickhouse.url,
      clickhouseUser: config.clickhouse.user,
      clickhousePassword: config.clickhouse.password,
      database: config.clickhouse.database,
      chdbPath: config.chdbPath,
    });
    await readStore.migrate(readModelMigrations()).catch(async (error: unknown) => {
      await readStore.close().catch(() => undefined);
      throw config.clickhouse.url === undefined ? (embeddedMigrationRefusal(error, config.chdbPath) ?? error) : error;
    });
    return { eventStore, readStore };
  } catch (error) {
    await eventStore.close();
    // A second service on the same DATA_DIR meets the first one's ClickHouse: a refusal naming CHDB_PATH, no stack trace.
    if (error instanceof ChdbDirectoryInUseError) throw new ConfigError([`CHDB_PATH ${JSON.stringify(config.chdbPath)}: ${error.message}`]);
    throw unreachableServer(error, config.clickhouse.url) ?? error;
  }
}

/**
 * A migration of the embedded read models that failed, as a refusal that says the way out: those
 * read models are all rebuilt from the event log, which no migration touches, so a store left
 * where no migration can run (by a bug, or a kill the migration was not written for) is set aside
 * and made again. Before, the start (and `projections:rebuild`) failed with a stack trace alone.
 */
function embeddedMigrationRefusal(error: unknown, chdbPath: string): StartRefusal | undefined {
  const message = error instanceof Error ? error.message : '';
  if (!/^Migration \S+ failed at statement /.test(message)) return undefined;
  return new StartRefusal(
    `The read models could not be brought up to date. ${message.trim()}\n` +
      `The events are untouched, and every read model is rebuilt from them: stop every process using CHDB_PATH ` +
      `${JSON.stringify(chdbPath)}, move that directory aside (or delete it), and start again; the start replays the ` +
      "event log into new read models (API keys' lastUsedAt, kept only there, starts again empty).",
  );
}

/** A ClickHouse server that cannot be reached, as a refusal naming CLICKHOUSE_URL (its origin: no credentials). */
function unreachableServer(error: unknown, url: string | undefined): ConfigError | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  if (url === undefined || typeof code !== 'string' || !UNREACHABLE_CODES.has(code)) return undefined;
  return serverNotReached('CLICKHOUSE_URL', new URL(url).origin, code, 'ClickHouse', 'URL');
}

/** The refusal of a start whose store server does not answer, naming the variable and where it points (never its credentials). */
const serverNotReached = (variable: string, where: string, cause: string, server: string, setting: string) =>
  new ConfigError([`${variable} ${where} cannot be reached (${cause}): start ${server} there, or correct the ${setting}`]);

/**
 * Makes the embedded store's directory, or stops the start with one line naming the variable that
 * points at it (a path under a file, a file in its place, no permission), not a stack trace.
 */
function usableDirectory(variable: 'DATA_DIR' | 'CHDB_PATH', path: string): void {
  try {
    mkdirSync(path, { recursive: true });
    // A directory that is there already passes mkdir on a read-only disk: the stores would then fail
    // deep inside SQLite or chDB, with a message about something else.
    accessSync(path, constants.W_OK);
  } catch (error) {
    throw new ConfigError([`${variable} ${JSON.stringify(path)} cannot be used as a directory: ${reasonOf(error, path)}`]);
  }
}

/**
 * Why a directory cannot be made: a recursive mkdir on a read-only disk says ENOENT of the path it
 * was asked for, so the nearest folder that exists is asked whether it can be written (EROFS, EACCES).
 */
function reasonOf(error: unknown, path: string): string {
  const message = (error as Error).message;
  if ((error as NodeJS.ErrnoException).code !== 'ENOENT') return message;
  for (let parent = dirname(path); parent !== dirname(parent); parent = dirname(parent)) {
    if (!existsSync(parent)) continue;
    try {
      accessSync(parent, constants.W_OK);
    } catch (denied) {
      return `${parent}: ${(denied as Error).message}`;
    }
    break;
  }
  return message;
}

/**
 * SQLite cannot open or prepare the log on a full disk (`SQLITE_FULL`, or the `SQLITE_IOERR` of
 * writing its journal there): a refusal naming DATA_DIR and the space left, not SQLite's stack trace,
 * which says "disk I/O error" and points at the hardware.
 */
function unopenableLog(error: unknown, dataDir: string): ConfigError | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string' || !/^SQLITE_(FULL|IOERR)/.test(code)) return undefined;
  let free = '';
  try {
    const disk = statfsSync(dataDir);
    free = `, ${Math.floor((disk.bavail * disk.bsize) / 1024)} KiB free on its disk`;
  } catch {
    // The space only decorates the message.
  }
  return new ConfigError([
    `DATA_DIR ${JSON.stringify(dataDir)}: the event store cannot be opened (${code}: ${(error as Error).message}${free}); free space on its disk`,
  ]);
}
