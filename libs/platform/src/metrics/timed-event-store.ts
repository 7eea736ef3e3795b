import { type EventStore, WrongExpectedRevisionError } from '@rank/event-store/event-store.port';
import { Metrics, secondsSince } from './metrics';

/**
 * The event store with its appends timed (`rank_event_store_append_seconds`). Every writer goes
 * through the store the platform opened, so this one place times them all.
 */
export function timeAppends(store: EventStore, metrics: Metrics): EventStore {
  const append = store.appendToStream.bind(store);
  const timed: EventStore['appendToStream'] = async (streamName, events, options) => {
    const start = process.hrtime.bigint();
    try {
      const result = await append(streamName, events, options);
      metrics.eventStoreAppend.observe({ outcome: 'ok' }, secondsSince(start));
      return result;
    } catch (error) {
      metrics.eventStoreAppend.observe(
        { outcome: error instanceof WrongExpectedRevisionError ? 'conflict' : 'error' },
        secondsSince(start),
      );
      throw error;
    }
  };
  // Bound once per method, not on every call: authentication reads the store on every request.
  const bound = new Map<PropertyKey, { method: (...args: unknown[]) => unknown; bound: unknown }>();
  return new Proxy(store, {
    get: (target, property) => {
      if (property === 'appendToStream') return timed;
      // Methods run on the store itself, not the proxy: adapters keep #private state.
      const value: unknown = Reflect.get(target, property, target);
      if (typeof value !== 'function') return value;
      const known = bound.get(property);
      if (known?.method === value) return known.bound;
      const method = value as (...args: unknown[]) => unknown;
      const entry = { method, bound: method.bind(target) };
      bound.set(property, entry);
      return entry.bound;
    },
  });
}
