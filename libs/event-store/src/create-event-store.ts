import { credentialsOf, withoutSecrets, withoutUserinfo } from '@rank/domain/secret-text';
import type { EventStore } from './event-store.port';
import { EventStoreDbEventStore } from './eventstoredb/eventstoredb-event-store';
import { SqliteEventStore } from './sqlite/sqlite-event-store';

export interface EventStoreConfig {
  /** EventStoreDB connection string (`EVENTSTORE_CONNECTION_STRING`); when set, the distributed store is used. */
  eventStoreConnectionString?: string;
  /** The embedded store's file, used when no connection string is set. Its directory must exist. */
  sqlitePath: string;
}

/** Opens the event store the configuration names: EventStoreDB when a connection string is set, else SQLite. */
export async function createEventStore(config: EventStoreConfig): Promise<EventStore> {
  const connectionString = config.eventStoreConnectionString?.trim();
  if (connectionString) {
    const shown = (text: string) =>
      withoutSecrets(text.split(connectionString).join(withoutUserinfo(connectionString)), credentialsOf(connectionString));
    // The client warns of an option it does not know by printing the whole connection string,
    // password included: its warnings are passed on with the user and password cut out.
    const warn = console.warn;
    console.warn = (...parts: unknown[]) => warn(...parts.map((part) => (typeof part === 'string' ? shown(part) : part)));
    try {
      return EventStoreDbEventStore.fromConnectionString(connectionString);
    } catch (error) {
      throw new Error(`EVENTSTORE_CONNECTION_STRING is not a valid EventStoreDB connection string: ${shown(errorMessage(error))}`, {
        cause: error,
      });
    } finally {
      console.warn = warn;
    }
  }
  return new SqliteEventStore(config.sqlitePath);
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
