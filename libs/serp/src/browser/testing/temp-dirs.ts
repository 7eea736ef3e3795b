import { mkdtempSync, rmSync } from 'node:fs';

/**
 * Gives each test of the suite a temp directory of its own, for the browsers it launches to make
 * theirs in (BrowserThread's `tempRoot`); answers a function that tells the current test's. The
 * machine's temp directory is shared with other runs: what a test's browsers leave behind is told
 * apart only in one of its own. (Jest's process.env is a copy: setting TMPDIR in it does not reach
 * `os.tmpdir()`.) It is made in /tmp, not in a TMPDIR that may be longer: Chromium's socket fits in
 * a launch's directory only under a short one (browser-thread.ts), and the tests check what a
 * launch leaves when it does.
 */
export function tempDirPerTest(): () => string {
  let current: string | undefined;
  beforeEach(() => {
    current = mkdtempSync('/tmp/browser-spec-');
  });
  afterEach(() => {
    // What a test's Chromium left may still be written to as it exits.
    if (current) rmSync(current, { recursive: true, force: true, maxRetries: 5 });
    current = undefined;
  });
  return () => {
    if (!current) throw new Error('tempDirPerTest: no test is running');
    return current;
  };
}
