import { Logger } from '@nestjs/common';
import { StartRefusal } from './start-refusal';

/** A started app: how to close it, and how long a signal lets the closing take (SHUTDOWN_TIMEOUT_MS). */
export interface StartedApp {
  close(): Promise<void>;
  shutdownTimeoutMs: number;
}

/**
 * What every entry point does around its own start: a refused start (a configuration error, read
 * models ahead of the log) is its message alone and exit 1,
 * SIGINT/SIGTERM close the app (its shutdown hooks flush and stop, checks under way finish) and exit
 * 0, and a failure while closing is logged, never thrown unhandled. A closing that takes longer than
 * the app's shutdown timeout, or a second signal, ends the process at once (exit 1): a check cut off
 * is not acknowledged, so a scraper takes it again, as after a crash. Before, a top-100 check paced
 * 4-6 s a page held the exit for minutes, past any orchestrator's grace period, and a second Ctrl-C
 * was ignored.
 */
export async function runApp(name: string, start: () => Promise<StartedApp>): Promise<void> {
  const logger = new Logger(name);
  let app: StartedApp;
  try {
    app = await start();
  } catch (error) {
    console.error(error instanceof StartRefusal ? error.message : error instanceof Error ? (error.stack ?? error.message) : error);
    process.exit(1);
  }
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) {
      logger.warn(`${signal} received again: exiting without finishing the shutdown`);
      process.exit(1);
    }
    stopping = true;
    logger.log(`${signal} received, shutting down`);
    setTimeout(() => {
      logger.warn(
        `the shutdown took longer than SHUTDOWN_TIMEOUT_MS (${app.shutdownTimeoutMs} ms): exiting; checks under way are taken again`,
      );
      process.exit(1);
    }, app.shutdownTimeoutMs).unref();
    try {
      await app.close();
      process.exit(0);
    } catch (error) {
      logger.error(`shutdown failed: ${error instanceof Error ? error.message : String(error)}`);
      process.exit(1);
    }
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}
