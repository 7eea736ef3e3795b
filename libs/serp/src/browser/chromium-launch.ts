import { tmpdir } from 'node:os';
import { chromium, type Browser } from 'playwright-core';
import { unpackChromium } from './bundled-chromium';
import {
  BUNDLED_CHROMIUM_PACKAGE,
  BrowserUnavailableError,
  bundledChromium,
  CHROMIUM_FLAGS,
  NO_BROWSER_FIX,
  chooseChromium,
  type ChromiumChoice,
  type ChromiumLaunchOptions,
} from './chromium';

/*
 * Starting and closing Chromium through Playwright. Only the browser's thread (browser-thread-entry.ts)
 * and tests load this: Playwright in the service's thread would slow its every request (browser-thread.ts).
 */

/**
 * Starts the chosen browser. Any failure, from unpacking the bundled one to Chromium exiting at
 * once, is a `BrowserUnavailableError` whose message says what to do.
 */
export async function launchChromium(options: ChromiumLaunchOptions = {}): Promise<Browser> {
  const choice: ChromiumChoice = options.executablePath
    ? { source: 'CHROMIUM_PATH', path: options.executablePath, skipped: [] }
    : (options.choice ?? chooseChromium(options.env ?? process.env));
  try {
    const executablePath = choice.source === 'bundled' ? await unpackBundledChromium(options.unpackInto ?? tmpdir()) : choice.path;
    return await chromium.launch({
      executablePath,
      headless: true,
      args: [...CHROMIUM_FLAGS, ...(options.extraArgs ?? [])],
      // Playwright adds --enable-automation by default, which shows up in the page as automation.
      ignoreDefaultArgs: ['--enable-automation'],
      timeout: options.launchTimeoutMs ?? 30_000,
      ...(options.chromiumTempDir && { env: { ...process.env, TMPDIR: options.chromiumTempDir } }),
    });
  } catch (error) {
    throw new BrowserUnavailableError(`No browser could be started: ${NO_BROWSER_FIX} (${describeFailure(choice, error)})`);
  }
}

function describeFailure(choice: ChromiumChoice, error: unknown): string {
  // Playwright's messages carry a multi-line call log; the first line says what went wrong.
  const message = (error instanceof Error ? error.message : String(error)).split('\n')[0].trim();
  const what = { CHROMIUM_PATH: `CHROMIUM_PATH ${choice.path}`, system: choice.path, bundled: `the bundled ${BUNDLED_CHROMIUM_PACKAGE}` }[
    choice.source
  ];
  const skipped = choice.skipped.length > 0 ? `; ${choice.skipped.join('; ')}` : '';
  return `${what}: ${message}${skipped}`;
}

let unpacking: Promise<string> | undefined;

/**
 * Unpacks the bundled Chromium into `into`, the machine's temp directory (once per machine: later
 * calls, in any thread or process, find it there; see bundled-chromium.ts) and answers its path. Only when chosen, so
 * machines with a browser never pay for it. The package's recommended flags are not used: they serve
 * AWS Lambda (single process, web security off), and ours run it as a normal headless browser.
 */
function unpackBundledChromium(into: string): Promise<string> {
  if (!unpacking) {
    const bundle = bundledChromium();
    unpacking = bundle ? unpackChromium(bundle, into) : Promise.reject(new Error(`${BUNDLED_CHROMIUM_PACKAGE} is not installed`));
    // A failed unpack (disk full, say) is tried again by the next launch.
    unpacking.catch(() => (unpacking = undefined));
  }
  return unpacking;
}

/**
 * Closes the browser and every context in it. Safe to call twice or after a crash; gives up
 * waiting after `timeoutMs` so a hung browser cannot hold a worker's shutdown forever.
 */
export async function closeChromium(browser: Browser, timeoutMs = 10_000): Promise<void> {
  if (!browser.isConnected()) return;
  let timer: NodeJS.Timeout | undefined;
  const gaveUp = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), timeoutMs);
  });
  try {
    const result = await Promise.race([browser.close().then(() => 'closed' as const), gaveUp]);
    if (result === 'timeout') throw new Error(`Chromium did not close within ${timeoutMs} ms`);
  } finally {
    clearTimeout(timer);
  }
}
