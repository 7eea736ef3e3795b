/**
 * jest globalTeardown: each worker process kept its embedded ClickHouse under
 * $TMPDIR/rank-tracker-chdb-<pid>; once the run is over, remove those whose process has ended.
 */
const { readdirSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');

module.exports = async () => {
  if (process.env.CHDB_TEST_PATH) return;
  for (const name of readdirSync(tmpdir())) {
    const match = /^rank-tracker-chdb-(\d+)$/.exec(name);
    if (!match) continue;
    let alive = true;
    try {
      process.kill(Number(match[1]), 0);
    } catch {
      alive = false;
    }
    if (!alive) rmSync(join(tmpdir(), name), { recursive: true, force: true });
  }
};
