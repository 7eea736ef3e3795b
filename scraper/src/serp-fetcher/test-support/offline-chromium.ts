import type { Browser } from 'playwright-core';
import { launchChromium } from '../../browser/chromium';

/**
 * Chromium for tests: hostnames resolve to nothing, so pages replayed from Google that reference
 * gstatic.com and friends cannot reach the internet; only IP literals of local servers work.
 */
export function launchOfflineChromium(): Promise<Browser> {
  return launchChromium({ extraArgs: ['--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE localhost'] });
}
