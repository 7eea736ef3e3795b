import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

/**
 * Flags every launch gets, whatever the caller passes.
 * The background-networking, component-update and sync switches stop Chromium from calling Google's
 * own update/sync/field-trial hosts on start: on an offline box that fails noisily, and on a scraper
 * it is traffic we did not ask for. QUIC is off so that proxies (HTTP CONNECT) carry every request.
 */
export const CHROMIUM_FLAGS: readonly string[] = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
  // Keeps navigator.webdriver false: Google treats an automation-flagged browser as a bot at once.
  '--disable-blink-features=AutomationControlled',
];

/** Where Debian's `chromium` package installs the browser. */
export const DEBIAN_CHROMIUM_PATH = '/usr/bin/chromium';

export interface ChromiumLaunchOptions {
  /** Wins over `CHROMIUM_PATH`. */
  executablePath?: string;
  /** Where `CHROMIUM_PATH` is read from; `process.env` by default. */
  env?: Readonly<Record<string, string | undefined>>;
  /** Appended after `CHROMIUM_FLAGS` (tests add host-resolver rules that keep them offline). */
  extraArgs?: readonly string[];
  /** How long Chromium may take to start; default 30 s. */
  launchTimeoutMs?: number;
}

/**
 * Which Chromium binary to run: `CHROMIUM_PATH` if set (it must exist), else Debian's system
 * Chromium if installed, else `undefined`, which lets Playwright use the Chromium it manages
 * (the usual case on a developer laptop).
 */
export function resolveChromiumExecutable(
  env: Readonly<Record<string, string | undefined>>,
  fileExists: (path: string) => boolean = existsSync,
): string | undefined {
  const configured = env.CHROMIUM_PATH?.trim();
  if (configured) {
    if (!fileExists(configured)) {
      throw new Error(`CHROMIUM_PATH is set to "${configured}", but no file exists there`);
    }
    return configured;
  }
  return fileExists(DEBIAN_CHROMIUM_PATH) ? DEBIAN_CHROMIUM_PATH : undefined;
}

export async function launchChromium(options: ChromiumLaunchOptions = {}): Promise<Browser> {
  const executablePath = options.executablePath ?? resolveChromiumExecutable(options.env ?? process.env);
  return chromium.launch({
    executablePath,
    headless: true,
    args: [...CHROMIUM_FLAGS, ...(options.extraArgs ?? [])],
    // Playwright adds --enable-automation by default, which shows up in the page as automation.
    ignoreDefaultArgs: ['--enable-automation'],
    timeout: options.launchTimeoutMs ?? 30_000,
  });
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
