import type { ExpectedRevision, NewEvent } from './event-store.port';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Checks an append request the same way in every adapter. The rules exist because of
 * EventStoreDB: it only accepts UUID event ids, and it treats `$`-prefixed streams and event types
 * as system ones that `readAll` hides. Enforcing them in the embedded store too means a mistake
 * fails in the first unit test rather than only in distributed mode.
 */
export function assertValidAppend(streamName: string, events: NewEvent[], expectedRevision: ExpectedRevision): void {
  if (typeof streamName !== 'string' || streamName.length === 0) {
    throw new TypeError('Stream name must be a non-empty string');
  }
  if (streamName.startsWith('$')) {
    throw new TypeError(`Stream name "${streamName}" is reserved: names starting with "$" are system streams`);
  }
  if (typeof expectedRevision === 'number' && !(Number.isSafeInteger(expectedRevision) && expectedRevision >= 0)) {
    throw new RangeError(`Expected revision must be a non-negative integer, got ${expectedRevision}`);
  }
  // An empty append has no position to report; a command that decides nothing should skip the append.
  if (events.length === 0) {
    throw new RangeError(`Nothing to append to stream ${streamName}: the batch is empty`);
  }
  for (const event of events) {
    if (typeof event.id !== 'string' || !UUID.test(event.id)) {
      throw new TypeError(`Event id must be a UUID, got "${String(event.id)}"`);
    }
    if (typeof event.type !== 'string' || event.type.length === 0 || event.type.startsWith('$')) {
      throw new TypeError(`Event type must be a non-empty string not starting with "$", got "${String(event.type)}"`);
    }
    if (!isJsonObject(event.data) || (event.metadata !== undefined && !isJsonObject(event.metadata))) {
      throw new TypeError(`Event ${event.id}: data and metadata must be plain objects`);
    }
  }
}

/**
 * Validates an append and returns the events to write: ids in lower case (EventStoreDB hands UUIDs
 * back in lower case, so both adapters store them that way and compare them that way), and each id
 * once (a batch that names an event twice stores it once).
 */
export function prepareAppend(streamName: string, events: NewEvent[], expectedRevision: ExpectedRevision): NewEvent[] {
  assertValidAppend(streamName, events, expectedRevision);
  const seen = new Set<string>();
  const prepared: NewEvent[] = [];
  for (const event of events) {
    const id = event.id.toLowerCase();
    if (seen.has(id)) continue;
    seen.add(id);
    prepared.push({ ...event, id });
  }
  return prepared;
}

function isJsonObject(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
