/**
 * Run in a child process by the SQLite tests: joins a consumer group with a long message timeout,
 * and on the first event it is handed, notes it in the stream `<log stream>` and kills itself with
 * SIGKILL while still holding the event, as a crashed scraper would.
 *
 * Arguments: <database file> <group> <stream prefix> <log stream>
 */
import { randomUUID } from 'node:crypto';
import { SqliteEventStore } from '../sqlite-event-store';

const [filePath, group, streamPrefix, logStream] = process.argv.slice(2);
if (!filePath || !group || !streamPrefix || !logStream) throw new Error('usage: <file> <group> <prefix> <log stream>');
const store = new SqliteEventStore(filePath, { pollIntervalMs: 20 });
store.joinConsumerGroup({
  group,
  streamPrefix,
  maxInFlight: 1,
  messageTimeoutMs: 600_000,
  maxRetries: 3,
  onEvent: async (event, attempt) => {
    await store.appendToStream(logStream, [{ id: randomUUID(), type: 'Holding', data: { eventId: event.id, attempt } }], {
      expectedRevision: 'any',
    });
    process.kill(process.pid, 'SIGKILL');
    await new Promise(() => undefined);
  },
});
