import { loadConfig } from '@rank/platform/config/app-config';
import { openStores } from '@rank/platform/stores/open-stores';
import { ALL_PROJECTIONS } from '@rank/projector/all-projections';
import { ProjectionRunner, resetReadModels } from '@rank/projector/projection-runner';

/**
 * `npm run projections:rebuild`: empties every read-model table and rebuilds it from the first event
 * of the log, with a progress bar. With the embedded stores, stop the service first: chDB allows one
 * process per data path.
 */
async function main(): Promise<void> {
  const config = loadConfig();
  const started = Date.now();
  const { eventStore, readStore } = await openStores(config);
  try {
    let total = 0;
    for (let after = 0; ;) {
      const page = await eventStore.readAll({ afterPosition: after, maxCount: 5_000 });
      if (page.length === 0) break;
      total += page.length;
      after = page[page.length - 1]!.position;
    }
    await resetReadModels(readStore, ALL_PROJECTIONS);
    const runner = new ProjectionRunner(eventStore, readStore, ALL_PROJECTIONS);
    await runner.start();
    const draw = () => {
      const done = Math.min(runner.eventsHandled, total);
      const width = 30;
      const filled = total === 0 ? width : Math.round((done / total) * width);
      process.stdout.write(`\r[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${total} events`);
    };
    const ticker = setInterval(draw, 200);
    await runner.waitUntilCaughtUp(24 * 3600 * 1000);
    clearInterval(ticker);
    draw();
    await runner.stop();
    const seconds = (Date.now() - started) / 1000;
    console.log(`\nRebuilt ${ALL_PROJECTIONS.length} projections from ${total} events in ${seconds.toFixed(1)} s (${Math.round(total / Math.max(seconds, 0.001))} events/s)`);
  } finally {
    await readStore.close();
    await eventStore.close();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
