import { runApp } from '@rank/platform/run-app';

/**
 * An entry point for the shutdown test: an app whose closing takes CLOSE_MS (never, when unset), as
 * a scraper's does while a check reads its pages. It says "started" once running.
 */
void runApp('SlowClose', async () => {
  // What keeps a real app alive: its server or its subscriptions.
  const alive = setInterval(() => undefined, 60_000);
  const closeMs = process.env.CLOSE_MS === undefined ? undefined : Number(process.env.CLOSE_MS);
  console.log('started');
  return {
    close: () =>
      closeMs === undefined
        ? new Promise<void>(() => undefined)
        : new Promise<void>((resolve) => setTimeout(resolve, closeMs)).then(() => clearInterval(alive)),
    shutdownTimeoutMs: Number(process.env.SHUTDOWN_TIMEOUT_MS),
  };
});
