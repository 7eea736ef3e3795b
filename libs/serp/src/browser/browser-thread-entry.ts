import { parentPort } from 'node:worker_threads';
import type { Browser } from 'playwright-core';
import { ChromiumPageLoader } from '../fetcher/chromium-page-loader';
import type { PageLoadResult } from '../fetcher/page-loader';
import type { BrowserThreadCommand, BrowserThreadMessage } from './browser-thread';
import { closeChromium, launchChromium } from './chromium-launch';

/**
 * The browser's side of BrowserThread (browser-thread.ts): the only place Playwright runs in the
 * service, so that its AsyncLocalStorage hook stays in this thread.
 */
if (!parentPort) throw new Error('browser-thread-entry runs as the worker thread of a BrowserThread');
const port = parentPort;

let browser: Browser | undefined;
const loaders = new Map<number, ChromiumPageLoader>();

function tell(message: BrowserThreadMessage): void {
  port.postMessage(message);
}

port.on('message', (command: BrowserThreadCommand) => {
  answer(command).then(
    (value) => tell({ kind: 'done', id: command.id, value }),
    (error: unknown) => tell({ kind: 'failed', id: command.id, message: error instanceof Error ? error.message : String(error) }),
  );
});

/** Commands are handled in the order they come; a loader is opened before the first load through it arrives. */
async function answer(command: BrowserThreadCommand): Promise<unknown> {
  switch (command.kind) {
    case 'launch': {
      browser = await launchChromium(command.options);
      browser.on('disconnected', () => tell({ kind: 'disconnected' }));
      return browser.version();
    }
    case 'open-loader':
      if (!browser) throw new Error('the browser has not started');
      loaders.set(command.loader, new ChromiumPageLoader(browser, command.options));
      return undefined;
    case 'load': {
      const loader = loaders.get(command.loader);
      if (!loader) return { kind: 'browser-closed', detail: 'the page loader is closed' } satisfies PageLoadResult;
      return loader.load(command.request);
    }
    case 'close-loader': {
      const loader = loaders.get(command.loader);
      loaders.delete(command.loader);
      await loader?.close();
      return undefined;
    }
    case 'close': {
      await Promise.all([...loaders.values()].map((loader) => loader.close().catch(() => undefined)));
      loaders.clear();
      if (browser) await closeChromium(browser, command.timeoutMs);
      return undefined;
    }
    default: {
      const unknown: never = command;
      throw new Error(`unknown command for the browser's thread: ${JSON.stringify(unknown)}`);
    }
  }
}
