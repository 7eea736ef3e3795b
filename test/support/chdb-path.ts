import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * chDB runs one engine per process, on one data path. Every test in a jest worker process shares this
 * path, and tests keep apart by ClickHouse database instead.
 */
export function processChdbPath(): string {
  return process.env.CHDB_TEST_PATH ?? join(tmpdir(), `rank-tracker-chdb-${process.pid}`);
}
