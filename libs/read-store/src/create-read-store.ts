import { createClient } from '@clickhouse/client';
import { acquireChdbEngine } from './chdb-engine';
import { ClickHouseReadStore, READS_AT_ONCE } from './clickhouse-read-store';
import { CLIENT_LOG, SERVER_ALIGNED_SETTINGS } from './clickhouse-settings';
import type { ReadStore } from './read-store.port';

export interface ReadStoreConfig {
  /** A ClickHouse server's HTTP URL (e.g. http://clickhouse:8123). Unset: embedded chDB. */
  clickhouseUrl?: string;
  clickhouseUser?: string;
  clickhousePassword?: string;
  /** The database the store reads and writes; created if missing. */
  database: string;
  /** chDB's data directory, used when no URL is set. One per process: see chdb-engine.ts. */
  chdbPath: string;
}

export async function createReadStore(config: ReadStoreConfig): Promise<ReadStore> {
  const { clickhouseUrl } = config;
  if (clickhouseUrl !== undefined && clickhouseUrl !== '') {
    return ClickHouseReadStore.open({
      database: config.database,
      connect: (database) =>
        createClient({
          url: clickhouseUrl,
          username: config.clickhouseUser,
          password: config.clickhousePassword,
          database,
          clickhouse_settings: SERVER_ALIGNED_SETTINGS,
          log: CLIENT_LOG,
        }),
      readsAtOnce: READS_AT_ONCE.server,
      cancelsReads: true,
    });
  }
  const engine = acquireChdbEngine(config.chdbPath);
  return ClickHouseReadStore.open({
    database: config.database,
    connect: (database) => engine.openClient(database),
    onClose: () => engine.release(),
    readsAtOnce: READS_AT_ONCE.embedded,
    cancelsReads: false,
  });
}
