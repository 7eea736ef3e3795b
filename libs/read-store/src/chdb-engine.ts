import { mkdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createClient, type ClickHouseClient } from '@clickhouse/client';
import { drainPending } from 'chdb';
import { createChdbConnection } from 'chdb/connection';
import { ChdbDatabaseConnection } from './chdb-database-connection';
import { CLIENT_LOG, SERVER_ALIGNED_SETTINGS } from './clickhouse-settings';

/**
 * chDB runs one ClickHouse engine per process, bound to one data directory: connections to the
 * same directory share it, a connection to another directory is refused while any is open. This
 * module keeps the process's record of that directory so the refusal says why, and so the engine
 * is considered free again only when the last store using it has closed.
 */
interface LiveEngine {
  path: string;
  leases: number;
}

let liveEngine: LiveEngine | undefined;

/** The directory is another process's ClickHouse: a start meeting this is refused (not a crash). */
export class ChdbDirectoryInUseError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'ChdbDirectoryInUseError';
  }
}

export interface ChdbEngineLease {
  readonly path: string;
  /** Opens a client (its own chDB connection) whose statements run in `database`. */
  openClient(database: string): ClickHouseClient;
  /**
   * Idempotent. The last lease on the directory resolves once chDB has let go of it: a connection
   * closed while a query still ran on it is torn down only after that query, and until then chDB
   * refuses to open another directory.
   */
  release(): Promise<void>;
}

export function acquireChdbEngine(requestedPath: string): ChdbEngineLease {
  const path = resolve(requestedPath);
  if (liveEngine !== undefined && liveEngine.path !== path) {
    throw new Error(oneEnginePerProcessMessage(liveEngine.path, path));
  }
  mkdirSync(path, { recursive: true });
  const engine: LiveEngine = liveEngine ?? { path, leases: 0 };
  liveEngine = engine;
  engine.leases += 1;

  let released = false;
  return {
    path,
    openClient(database: string): ClickHouseClient {
      if (released) throw new Error(`The chDB engine lease for ${path} was released`);
      let connection;
      try {
        connection = createChdbConnection({ path });
      } catch (error) {
        const owner = otherProcessOwning(path);
        const why =
          owner === undefined
            ? // Another copy of this module (e.g. another jest test file in the same worker) may hold
              // the engine at a different path; the native refusal alone does not say what to do.
              oneEnginePerProcessMessage(undefined, path)
            : `Cannot open chDB at ${path}: another process (PID ${owner}) runs ClickHouse on this directory. ` +
              'A ClickHouse data directory serves one process: give each process its own CHDB_PATH (a scraper ' +
              'started apart from the api, say), or run the roles in one process.';
        if (owner === undefined) throw new Error(`${why} (chDB: ${(error as Error).message})`, { cause: error });
        throw new ChdbDirectoryInUseError(why, { cause: error });
      }
      return createClient({
        // The settings go to the connection, which SETs them once for its session (see there).
        connection: new ChdbDatabaseConnection(connection, database, SERVER_ALIGNED_SETTINGS),
        log: CLIENT_LOG,
      });
    },
    async release(): Promise<void> {
      if (released) return;
      released = true;
      engine.leases -= 1;
      if (engine.leases > 0) return;
      // Found in the bench: an app stopped right after it started, with a projection's query still
      // running, and the next app (on another directory) could not open chDB. No other store here
      // uses the engine any more, so the wait ends when those last operations do.
      await drainPending();
      if (engine.leases === 0 && liveEngine === engine) liveEngine = undefined;
    },
  };
}

/**
 * The PID of another live process that holds a ClickHouse data directory: ClickHouse writes its own
 * PID in the directory's `status` file and keeps it locked while it runs.
 */
function otherProcessOwning(path: string): number | undefined {
  let status: string;
  try {
    status = readFileSync(join(path, 'status'), 'utf8');
  } catch {
    return undefined;
  }
  const pid = Number(/^PID: (\d+)$/m.exec(status)?.[1]);
  if (!Number.isInteger(pid) || pid === process.pid) return undefined;
  try {
    process.kill(pid, 0);
    return pid;
  } catch {
    return undefined; // gone: the file is a leftover, and the refusal is something else
  }
}

function oneEnginePerProcessMessage(livePath: string | undefined, requestedPath: string): string {
  const holder = livePath === undefined ? 'another data directory' : livePath;
  return (
    `Cannot open chDB at ${requestedPath}: this process already runs chDB on ${holder}. ` +
    'chDB runs one ClickHouse engine per process, bound to one data directory, so every read store ' +
    'in a process must use the same chdbPath (separate them by database instead), or close the ' +
    'stores on the other path first.'
  );
}
