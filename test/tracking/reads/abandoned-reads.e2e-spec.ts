import { request as httpRequest } from 'node:http';
import { rmSync } from 'node:fs';
import { Logger } from '@nestjs/common';
import { createReadStore } from '@rank/read-store/create-read-store';
import { testChdbPath } from '@rank/read-store/testing/test-read-store';
import { QueryAbandoned } from '@rank/read-store/read-gate';
import type { TestApp } from '../../support/test-app';
import { createProject, startReadsApp } from './reads-fixture';

/**
 * A client that hangs up before its read's turn leaves no work behind: before, every request's query
 * went to ClickHouse whether or not anyone still waited for it, and 300 clients that sent a year's
 * keyword-updates and left 5 ms later made the next caller wait 49 s instead of 1.5 s.
 */
describe('reads of a client that has gone', () => {
  let app: TestApp;
  beforeAll(async () => (app = await startReadsApp()));
  afterAll(() => app?.close());

  /** Sends a GET and closes the connection after `ms`, without reading any answer. */
  const sendAndLeave = (path: string, key: string, ms: number) =>
    new Promise<void>((resolve) => {
      const request = httpRequest(new URL(path, app.url), { headers: { authorization: `Bearer ${key}` } });
      request.on('error', () => undefined);
      request.end(() => setTimeout(() => (request.destroy(), resolve()), ms));
    });

  it.each([
    ['keyword-updates', (projectId: string) => `/api/projects/keyword-updates?projectId=${projectId}`],
    ['the CSV export', (projectId: string) => `/api/projects/export?projectId=${projectId}`],
    ['the Markdown report', (projectId: string) => `/api/projects/export-agent?projectId=${projectId}`],
    ['pages', (projectId: string) => `/api/projects/pages?projectId=${projectId}`],
    [
      'competitor-positions',
      (projectId: string) => `/api/projects/competitor-positions?projectId=${projectId}&competitorDomain=rival.example`,
    ],
    ['position-history', () => `/api/projects/position-history?keywordUpdateId=${'a'.repeat(24)}`],
  ])('%s: is not read once its client has gone while it waited, and nothing is logged as a failure', async (_, pathOf) => {
    const key = (await app.createAccount()).apiKey;
    const { projectId } = await createProject(app, key, { domain: 'gone.example' }, [
      { keywords: ['left early'], geoCode: 'US', langCode: 'en' },
    ]);
    const store = app.running.stores.readStore;
    const gate = jest.spyOn(store, 'queryRaw');
    const query = jest.spyOn(store, 'query');
    // Given the store's reads taken by two slow ones
    const slow = () => store.query('SELECT sleepEachRow(0.5) FROM numbers(3) SETTINGS max_block_size = 1');
    const busy = [slow(), slow()];
    const errors = jest.spyOn(Logger.prototype, 'error');
    try {
      // When a client asks and leaves while its read waits
      await sendAndLeave(pathOf(projectId), key, 400);
      await Promise.all(busy);
      await new Promise((resolve) => setTimeout(resolve, 300));
      // then its reads were refused their turn (none of them was run), and nothing was logged as failed
      const outcomes = [...gate.mock.results, ...query.mock.results].filter((r) => r.type === 'return');
      const settled = await Promise.allSettled(outcomes.map((r) => r.value as Promise<unknown>));
      const abandoned = settled.filter((s) => s.status === 'rejected' && s.reason instanceof QueryAbandoned);
      expect(abandoned.length).toBeGreaterThan(0);
      expect(settled.filter((s) => s.status === 'rejected' && !(s.reason instanceof QueryAbandoned))).toEqual([]);
      expect(errors.mock.calls.map((call) => String(call[0]))).toEqual([]);
    } finally {
      gate.mockRestore();
      query.mockRestore();
      errors.mockRestore();
    }
  });

  it('logs nothing for clients that hang up while their reads run', async () => {
    // Before, chDB's client stopped waiting for a read under way when its caller went, and its "Query
    // aborted" was logged with its stack for 281 of 300 such keyword-updates (the engine ran them on).
    const key = (await app.createAccount()).apiKey;
    const { projectId } = await createProject(app, key, { domain: 'hung-up.example' }, [
      { keywords: ['hung up'], geoCode: 'US', langCode: 'en' },
    ]);
    const errors = jest.spyOn(Logger.prototype, 'error');
    try {
      for (const path of ['keyword-updates', 'export']) {
        await Promise.all(Array.from({ length: 20 }, () => sendAndLeave(`/api/projects/${path}?projectId=${projectId}`, key, 5)));
      }
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      expect(errors.mock.calls.map((call) => String(call[0]))).toEqual([]);
      expect((await app.request('GET', '/api/projects/keyword-updates', { key, query: { projectId } })).status).toBe(200);
    } finally {
      errors.mockRestore();
    }
  });

  it('refuses, at a shutdown, the reads still waiting for clients that have gone, without logging them as failures', async () => {
    // Before, 591 reads of requests whose clients had gone failed on the closed connection at a SIGTERM, each logged with its stack.
    const stopping = await startReadsApp();
    const errors = jest.spyOn(Logger.prototype, 'error');
    try {
      const key = (await stopping.createAccount()).apiKey;
      const { projectId } = await createProject(stopping, key, { domain: 'stopping.example' }, [
        { keywords: ['left before the stop'], geoCode: 'US', langCode: 'en' },
      ]);
      const store = stopping.running.stores.readStore;
      const busy = [1, 2].map(() => store.query('SELECT sleepEachRow(1) FROM numbers(3) SETTINGS max_block_size = 1'));
      // Pages-pagespeed is read without its client's signal: its reads wait for their turn whoever still waits for them.
      const leaving = Array.from(
        { length: 6 },
        () =>
          new Promise<void>((resolve) => {
            const request = httpRequest(new URL(`/api/projects/pages-pagespeed?projectId=${projectId}`, stopping.url), {
              headers: { authorization: `Bearer ${key}` },
            });
            request.on('error', () => undefined);
            request.end(() => setTimeout(() => (request.destroy(), resolve()), 300));
          }),
      );
      await Promise.all(leaving);
      // The service's own closing (the test app's would drop the database before the store closes)
      await stopping.running.close();
      await Promise.all(busy);
      // (the pages' reads that were waiting would have failed on the closed connection by now)
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      expect(errors.mock.calls.map((call) => String(call[0]))).toEqual([]);
    } finally {
      errors.mockRestore();
      const cleaner = await createReadStore({ database: 'default', chdbPath: testChdbPath() });
      await cleaner.command(`DROP DATABASE IF EXISTS ${stopping.running.stores.readStore.database}`).finally(() => cleaner.close());
      rmSync(stopping.dataDir, { recursive: true, force: true });
    }
  });
});
