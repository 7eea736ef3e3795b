import type { Browser } from 'playwright-core';
import { BrowserThread } from '../../browser/browser-thread';
import { launchChromium } from '../../browser/chromium-launch';

/**
 * Chromium for tests: hostnames resolve to nothing, so pages replayed from Google that reference
 * gstatic.com and friends cannot reach the internet; only IP literals of local servers work.
 * `localHosts` (e.g. `consent.google.com`) resolve to 127.0.0.1 instead, so a redirect to such a
 * host (with the port of a local server) reaches that server.
 */
function offlineArgs(localHosts: readonly string[] = []): string[] {
  const local = localHosts.map((host) => `MAP ${host} 127.0.0.1, `).join('');
  return [`--host-resolver-rules=${local}MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE localhost`];
}

/** The offline Chromium in this thread, for tests of the page loader itself. */
export function launchOfflineChromium(options: { localHosts?: readonly string[] } = {}): Promise<Browser> {
  return launchChromium({ extraArgs: offlineArgs(options.localHosts) });
}

/** The offline Chromium in a thread of its own, as the service runs it (for the fetcher). */
export function launchOfflineBrowserThread(options: { localHosts?: readonly string[] } = {}): Promise<BrowserThread> {
  return BrowserThread.launch({ extraArgs: offlineArgs(options.localHosts) });
}
