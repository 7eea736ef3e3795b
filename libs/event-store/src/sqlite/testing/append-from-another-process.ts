/**
 * Run in a child process by the SQLite tests: appends `batches` batches of `batchSize` events to one
 * stream of a shared store file, each as a read-then-append with the expected revision, retrying on
 * conflict. Prints how many conflicts it met, as JSON. Writing starts only once all `writers` have
 * opened the store (they meet in a stream of their own), so writers started one after another
 * still contend.
 *
 * Arguments: <database file> <stream name> <writer name> <batches> <batchSize> <writers>
 */
import { randomUUID } from 'node:crypto';
import { WrongExpectedRevisionError } from '../../event-store.port';
import { SqliteEventStore } from '../sqlite-event-store';

async function main(): Promise<void> {
  const [filePath, stream, writer, batches, batchSize, writers] = process.argv.slice(2);
  if (!filePath || !stream || !writer || !batches || !batchSize || !writers) {
    throw new Error('usage: <file> <stream> <writer> <batches> <batchSize> <writers>');
  }
  const store = new SqliteEventStore(filePath);
  const startLine = `${stream}-start`;
  await store.appendToStream(startLine, [{ id: randomUUID(), type: 'WriterReady', data: { writer } }], { expectedRevision: 'any' });
  let ready = await store.readStream(startLine);
  while (ready.length < Number(writers)) {
    await sleep(2);
    ready = await store.readStream(startLine);
  }
  // Everyone sees the same last arrival, so everyone starts at the same moment.
  await sleep(ready[ready.length - 1]!.recordedAt.getTime() + 100 - Date.now());
  let conflicts = 0;
  try {
    for (let batch = 0; batch < Number(batches); batch++) {
      // A pause between batches spreads the writers over time, so their batches interleave.
      await sleep(1);
      const events = Array.from({ length: Number(batchSize) }, (_, index) => ({
        id: randomUUID(),
        type: 'WrittenByChild',
        data: { writer, batch, index },
      }));
      for (;;) {
        const [last] = await store.readStream(stream, { direction: 'backwards', maxCount: 1 });
        try {
          await store.appendToStream(stream, events, { expectedRevision: last ? last.revision : 'no_stream' });
          break;
        } catch (error) {
          if (!(error instanceof WrongExpectedRevisionError)) throw error;
          conflicts += 1;
        }
      }
    }
  } finally {
    await store.close();
  }
  process.stdout.write(JSON.stringify({ conflicts }));
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
