import { Logger } from '@nestjs/common';
import { EventStoreDbDouble } from '@rank/event-store/eventstoredb/testing/eventstoredb-double';
import { startChdbHttpServer, type ChdbHttpServer } from '@rank/read-store/testing/chdb-http-server';
import { testChdbPath } from '@rank/read-store/testing/test-read-store';
import { waitFor } from '@rank/platform/testing/wait-for';
import { startTcpGate, type TcpGate } from '../support/tcp-gate';
import { startTestApp, type TestApp } from '../support/test-app';

/**
 * The servers of the distributed stack can go away for a while (a node restarting, a network cut).
 * Requests meanwhile get the spec's 500, whose message says which store cannot be reached instead of
 * "Internal server error", and the same requests succeed once it is back, without a restart.
 */
describe('an event store or ClickHouse server that cannot be reached', () => {
  const double = new EventStoreDbDouble();
  let clickhouse: ChdbHttpServer;
  let eventGate: TcpGate;
  let readGate: TcpGate;
  let app: TestApp;
  let key: string;
  let projectId: string;

  beforeAll(async () => {
    const { port } = await double.start();
    clickhouse = await startChdbHttpServer({ chdbPath: testChdbPath() });
    eventGate = await startTcpGate(port);
    readGate = await startTcpGate(Number(new URL(clickhouse.url).port));
    app = await startTestApp({
      env: {
        EVENTSTORE_CONNECTION_STRING: `esdb://127.0.0.1:${eventGate.port}?tls=false`,
        CLICKHOUSE_URL: `http://127.0.0.1:${readGate.port}`,
      },
    });
    key = (await app.createAccount()).apiKey;
    projectId = (await app.request('POST', '/api/projects', { key, body: { name: 'Cut', domain: 'cut.example' } })).body.project._id;
  }, 60_000);
  afterAll(async () => {
    await eventGate?.restore().catch(() => undefined);
    await readGate?.restore().catch(() => undefined);
    await app?.close();
    await eventGate?.close();
    await readGate?.close();
    await clickhouse?.close();
    await double.stop();
  });

  const addKeyword = (keyword: string) =>
    app.request('POST', '/api/projects/keywords', { key, body: { projectId, keywords: [keyword], geoCode: 'US', langCode: 'en' } });

  /** Error lines logged meanwhile: the cause goes to the log, with its stack, never to the caller. */
  const loggedErrors = async (during: () => Promise<void>) => {
    const errors = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    try {
      await during();
      return errors.mock.calls.map((call) => String(call[1]));
    } finally {
      errors.mockRestore();
    }
  };

  it('answers 500 naming the event store while it is cut off, logs why, and takes the same write once it is back', async () => {
    const answers: { status: number; body: unknown }[] = [];
    const logged = await loggedErrors(async () => {
      await eventGate.cut();
      try {
        answers.push(await addKeyword('while cut'), await app.request('GET', `/api/projects/${projectId}`, { key }));
      } finally {
        await eventGate.restore();
      }
    });
    // Before: {"success":false,"message":"Internal server error"}, as for a bug.
    const away = { success: false, message: 'The service cannot reach its event store now; try again shortly.' };
    expect(answers.map(({ status, body }) => ({ status, body }))).toEqual([
      { status: 500, body: away },
      { status: 500, body: away },
    ]);
    expect(logged).toEqual([expect.stringContaining('UNAVAILABLE'), expect.stringContaining('UNAVAILABLE')]);
    // Back without a restart: the same write is taken.
    const added = await waitFor(
      () => addKeyword('while cut'),
      (answer) => answer.status !== 500,
    );
    expect({ status: added.status, added: added.body.addedCount }).toEqual({ status: 200, added: 1 });
  }, 60_000);

  it('answers 500 naming ClickHouse while it is cut off, and reads again once it is back', async () => {
    const read = () => app.request('GET', '/api/projects/keyword-updates', { key, query: { projectId } });
    const answers: { status: number; body: unknown }[] = [];
    const logged = await loggedErrors(async () => {
      await readGate.cut();
      try {
        answers.push(await read());
      } finally {
        await readGate.restore();
      }
    });
    expect(answers.map(({ status, body }) => ({ status, body }))).toEqual([
      { status: 500, body: { success: false, message: 'The service cannot reach its read store (ClickHouse) now; try again shortly.' } },
    ]);
    expect(logged).toEqual([expect.stringContaining('ECONNREFUSED')]);
    const back = await waitFor(read, (answer) => answer.status !== 500);
    expect(back.status).toBe(200);
  }, 60_000);
});
