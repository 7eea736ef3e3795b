import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
// The service's fetcher module, loaded for what it imports: none of it may load Playwright.
import '../../fetcher';
import { DIRECT_EGRESS } from '../../fetcher/egress-pool';
import type { PageLoader } from '../../fetcher/page-loader';
import { BrowserThread } from '../browser-thread';

/**
 * Run in a fresh process by browser-thread.spec.ts (argv[2]: `thread` or `here`): loads one page
 * from a local server with Chromium driven from a BrowserThread or from this thread, then prints
 * the page's status, whether this thread's promises now carry async-hook ids (they do once any
 * AsyncLocalStorage, Playwright's, has run here), and whether Playwright was loaded here at all. The
 * static imports are the service's (the fetcher, BrowserThread); `here` loads Playwright itself.
 */
const LOADER_OPTIONS = { navigationTimeoutMs: 10_000, maxConcurrentPages: 1, maxContexts: 1, subresourceHosts: [] };
const OFFLINE = ['--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1'];

function promisesCarryHookIds(): boolean {
  return Object.getOwnPropertySymbols(Promise.resolve().then(() => undefined)).length > 0;
}

async function main(): Promise<void> {
  const server = createServer((_, response) => response.end('<html><body><p>probe</p></body></html>'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  const hookedBefore = promisesCarryHookIds();
  let loader: PageLoader;
  let close: () => Promise<void>;
  if (process.argv[2] === 'thread') {
    const thread = await BrowserThread.launch({ extraArgs: OFFLINE });
    loader = thread.pageLoader(LOADER_OPTIONS);
    close = () => thread.close();
  } else {
    const { closeChromium, launchChromium } = await import('../chromium-launch');
    const { ChromiumPageLoader } = await import('../../fetcher/chromium-page-loader');
    const browser = await launchChromium({ extraArgs: OFFLINE });
    loader = new ChromiumPageLoader(browser, LOADER_OPTIONS);
    close = () => closeChromium(browser);
  }
  const result = await loader.load({ url, egress: DIRECT_EGRESS, userAgent: 'probe', locale: 'en-US', acceptLanguage: 'en-US,en' });
  const hookedAfter = promisesCarryHookIds();
  await loader.close();
  await close();
  server.close();
  const html = result.kind === 'loaded' ? result.html : '';
  const playwrightLoaded = Object.keys(require.cache).some((path) => path.includes('/node_modules/playwright-core/'));
  process.stdout.write(JSON.stringify({ kind: result.kind, hasText: html.includes('probe'), hookedBefore, hookedAfter, playwrightLoaded }));
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(String(error instanceof Error ? error.stack : error));
    process.exit(1);
  },
);
