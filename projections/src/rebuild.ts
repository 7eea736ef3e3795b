import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig } from '@rank/platform/config/app-config';
import { EMBEDDED_EVENT_STORE_FILE, openStores } from '@rank/platform/stores/open-stores';
import { ALL_PROJECTIONS } from '@rank/projector/all-projections';
import { ProjectionRunner, resetReadModels } from '@rank/projector/projection-runner';
import { describeProgress, progressIntervalMs } from './rebuild-progress';

/**
 * `npm run projections:rebuild`: empties every read-model table and rebuilds it from the first event
 * of the log, with a progress bar. With the embedded stores, stop the service first: chDB allows one
 * process per data path.
 */
async function main(): Promise<void> {
  const config = loadConfig();
  const started = Date.now();
  const log = join(config.dataDir, EMBEDDED_EVENT_STORE_FILE);
  // A mistyped DATA_DIR would otherwise start an empty log and "rebuild" the read models from nothing.
  if (!config.eventStoreConnectionString && !existsSync(log))
    throw new Error(`No event store at ${log}: check DATA_DIR. The rebuild reads an existing log; it never starts an empty one.`);
  const { eventStore, readStore } = await openStores(config).catch((error: unknown) => {
    const owner = /another process \(PID (\d+)\)/.exec(String((error as Error).message))?.[1];
    if (owner === undefined || config.clickhouse.url !== undefined) throw error;
    throw new Error(
      `Stop the service first: another process (PID ${owner}) runs ClickHouse on ${config.chdbPath}, and the rebuild empties ` +
        'and rewrites the read models it reads there.',
    );
  });
  try {
    // Progress is measured by position against the log's end, so the log is read once, by the rebuild.
    const lastPosition = await eventStore.lastPosition();
    await resetReadModels(readStore, ALL_PROJECTIONS);
    const runner = new ProjectionRunner(eventStore, readStore, ALL_PROJECTIONS);
    const replayStarted = Date.now();
    await runner.start();
    const terminal = process.stdout.isTTY === true;
    const draw = (position = runner.position) => {
      const line = describeProgress({ position, lastPosition, events: runner.eventsHandled, elapsedMs: Date.now() - replayStarted });
      if (terminal) process.stdout.write(`\r${line}\x1b[K`);
      else console.log(line);
    };
    const ticker = setInterval(draw, progressIntervalMs(terminal));
    await runner.waitUntilCaughtUp(24 * 3600 * 1000);
    clearInterval(ticker);
    draw(lastPosition);
    await runner.stop();
    const total = runner.eventsHandled;
    const seconds = (Date.now() - started) / 1000;
    console.log(
      `${terminal ? '\n' : ''}Rebuilt ${ALL_PROJECTIONS.length} projections from ${total} events in ${seconds.toFixed(1)} s (${Math.round(total / Math.max(seconds, 0.001))} events/s)`,
    );
  } finally {
    await readStore.close();
    await eventStore.close();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
