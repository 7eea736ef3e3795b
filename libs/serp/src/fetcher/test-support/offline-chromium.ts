import type { Browser } from 'playwright-core';
import { launchChromium } from '../../browser/chromium';

/**
 * Chromium for tests: hostnames resolve to nothing, so pages replayed from Google that reference
 * gstatic.com and friends cannot reach the internet; only IP literals of local servers work.
 * `localHosts` (e.g. `consent.google.com`) resolve to 127.0.0.1 instead, so a redirect to such a
 * host (with the port of a local server) reaches that server.
 */
export function launchOfflineChromium(options: { localHosts?: readonly string[] } = {}): Promise<Browser> {
  const local = (options.localHosts ?? []).map((host) => `MAP ${host} 127.0.0.1, `).join('');
  return launchChromium({ extraArgs: [`--host-resolver-rules=${local}MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE localhost`] });
}
