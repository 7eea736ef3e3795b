import { ClickHouseLogLevel, type ClickHouseSettings } from '@clickhouse/client';

/**
 * Settings sent with every statement, to the embedded engine and to a server alike.
 *
 * chDB ships with defaults tuned for notebooks, which differ from a ClickHouse server's; the same
 * code must read and write the same values on both, so each difference we rely on is pinned here
 * (a server already has most of these values; sending them anyway protects us from a server whose
 * profile changed them).
 */
export const SERVER_ALIGNED_SETTINGS: ClickHouseSettings = {
  // A server quotes (U)Int64 in JSON output; chDB does not. Unquoted 64-bit integers lose
  // precision in JSON.parse, and callers would see numbers on one engine and strings on the other.
  output_format_json_quote_64bit_integers: 1,
  // chDB parses DateTime text with best_effort (ISO 8601, 'Z', offsets...); a server only accepts
  // 'YYYY-MM-DD hh:mm:ss[.fff]' and unix timestamps. Code that only works on chDB must fail here too.
  date_time_input_format: 'basic',
  // chDB turns async inserts on; with them an INSERT is acknowledged from a buffer with different
  // deduplication and visibility rules. Plain synchronous inserts behave the same on both engines.
  async_insert: 0,
  // chDB runs ALTER ... DELETE/UPDATE synchronously, a server by default does not. Waiting on both
  // means a read after a mutation sees it, whatever the engine.
  mutations_sync: '1',
  // chDB runs in UTC, a server in whatever its host says. now(), toDate() and DateTime columns
  // without an explicit zone must give the same answer on both.
  session_timezone: 'UTC',
};

/**
 * The client's own logging is off: every failure is thrown to the caller with ClickHouse's code and
 * message, and logging it as well would print each expected failure twice.
 */
export const CLIENT_LOG = { level: ClickHouseLogLevel.OFF };
