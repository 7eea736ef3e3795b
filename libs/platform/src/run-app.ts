import { INestApplicationContext, Logger } from '@nestjs/common';
import { StartRefusal } from './start-refusal';

/**
 * What every entry point does around its own start: a refused start (a configuration error, read
 * models ahead of the log) is its message alone and exit 1,
 * SIGINT/SIGTERM close the app (its shutdown hooks flush and stop) and exit 0, and a failure while
 * closing is logged, never thrown unhandled.
 */
export async function runApp(name: string, start: () => Promise<{ close(): Promise<void> } | INestApplicationContext>): Promise<void> {
  const logger = new Logger(name);
  let app: { close(): Promise<void> };
  try {
    app = await start();
  } catch (error) {
    console.error(error instanceof StartRefusal ? error.message : error instanceof Error ? (error.stack ?? error.message) : error);
    process.exit(1);
  }
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.log(`${signal} received, shutting down`);
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
