export type { Migration, QueryParams, ReadStore } from './read-store.port';
export { createReadStore, type ReadStoreConfig } from './create-read-store';
export { ClickHouseReadStore, type ClickHouseReadStoreOptions } from './clickhouse-read-store';
export { BatchedWriter, type BatchSink, type BatchedWriterOptions, type FlushFailure } from './batched-writer';
export { loadMigrationsFromDir, splitSqlStatements } from './migrations';
export { SERVER_ALIGNED_SETTINGS } from './clickhouse-settings';
