import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEventStore } from './create-event-store';
import { EventStoreDbEventStore } from './eventstoredb/eventstoredb-event-store';
import { SqliteEventStore } from './sqlite/sqlite-event-store';

describe('createEventStore', () => {
  let dir: string;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'create-event-store-'));
  });

  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('opens the SQLite file when no connection string is set (or it is blank)', async () => {
    for (const eventStoreConnectionString of [undefined, '', '  ']) {
      const store = await createEventStore({ eventStoreConnectionString, sqlitePath: join(dir, 'events.sqlite') });
      try {
        expect(store).toBeInstanceOf(SqliteEventStore);
      } finally {
        await store.close();
      }
    }
  });

  it('chooses EventStoreDB when a connection string is set (connecting lazily)', async () => {
    const store = await createEventStore({
      eventStoreConnectionString: 'esdb://localhost:2113?tls=false',
      sqlitePath: join(dir, 'unused.sqlite'),
    });
    try {
      expect(store).toBeInstanceOf(EventStoreDbEventStore);
    } finally {
      await store.close();
    }
  });

  it("passes the client's warning of an unknown option on without the user and password (it prints the whole string)", async () => {
    const warnings = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    try {
      const store = await createEventStore({
        eventStoreConnectionString: 'esdb://admin:SECRET-ES-PASS-1a2b@127.0.0.1:9?tls=false&bogus=1',
        sqlitePath: join(dir, 'unused.sqlite'),
      });
      await store.close();
      const printed = warnings.mock.calls.flat().map(String).join('\n');
      expect(printed).toContain('Unknown option key "bogus"');
      expect(printed).not.toContain('SECRET-ES-PASS');
      expect(printed).toContain('esdb://***@127.0.0.1:9?tls=false&bogus=1');
    } finally {
      warnings.mockRestore();
    }
  });

  it('names the variable when the connection string is malformed', async () => {
    await expect(
      createEventStore({ eventStoreConnectionString: 'localhost:2113', sqlitePath: join(dir, 'unused.sqlite') }),
    ).rejects.toThrow('EVENTSTORE_CONNECTION_STRING');
  });
});
