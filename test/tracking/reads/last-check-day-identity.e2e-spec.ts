import { randomUUID } from 'node:crypto';
import { ProjectionRunner } from '@rank/projector/projection-runner';
import type { ReadStore } from '@rank/read-store/read-store.port';
import { checkWorkStreamName, CheckWorkEvent } from '@rank/tracking/domain/check.events';
import { CheckProgressReader } from '@rank/tracking/reads/check-progress/check-progress.reader';
import { seedChecks, SeededCheck } from '../../support/seed-checks';
import type { TestApp } from '../../support/test-app';
import { createProject, NOW, startReadsApp } from './reads-fixture';
import { PREVIOUS_LAST_CHECK_DAY_QUERY } from '../../support/previous-last-check-day';

/**
 * The last check day is read from the last two monthly partitions first, and from the whole history
 * only when those cannot say for sure. This proves the answer did not change: the reference is the
 * previous query, verbatim, on the same seeded checks, and each case says which path it takes (one
 * query or two). NOW is 20 March 2026, so the window starts on 1 February.
 */

/** One check: asked for at `queuedAt` (none: known only by its result), ended at `endedAt` (none: still waiting). */
interface Check {
  queuedAt?: string;
  endedAt?: string;
  failed?: boolean;
}

const CASES: { name: string; checks: Check[]; queries: number }[] = [
  {
    name: 'checks of the last days, each with its queue row: the recent months alone',
    checks: [
      { queuedAt: '2026-03-10T06:00:00Z', endedAt: '2026-03-10T06:01:00Z' },
      { queuedAt: '2026-03-18T06:00:00Z', endedAt: '2026-03-18T06:02:00Z' },
      { queuedAt: '2026-03-18T06:00:00Z', endedAt: '2026-03-18T06:03:00Z', failed: true },
      { queuedAt: '2026-03-18T23:59:00Z', endedAt: '2026-03-19T00:01:00Z' },
      { queuedAt: '2026-03-18T06:00:00Z' },
    ],
    queries: 1,
  },
  {
    name: 'a check asked before the window that ended in it, the latest: the whole history',
    checks: [
      { queuedAt: '2026-01-20T06:00:00Z', endedAt: '2026-01-20T06:01:00Z' },
      { queuedAt: '2026-01-31T23:59:00Z', endedAt: '2026-02-02T00:01:00Z' },
    ],
    queries: 2,
  },
  {
    // A scraper's clock a little behind: the result's day is before the request's, outside the window.
    name: "the latest day is the window's first: the whole history",
    checks: [
      { queuedAt: '2026-02-01T00:00:30Z', endedAt: '2026-01-31T23:59:50Z' },
      { queuedAt: '2026-02-01T06:00:00Z', endedAt: '2026-02-01T06:01:00Z' },
    ],
    queries: 2,
  },
  {
    name: 'only checks older than the window: the whole history',
    checks: [{ queuedAt: '2025-12-05T06:00:00Z', endedAt: '2025-12-05T06:01:00Z' }],
    queries: 2,
  },
  {
    name: 'a check known only by its result on the latest day: the whole history',
    checks: [{ queuedAt: '2026-03-10T06:00:00Z', endedAt: '2026-03-10T06:01:00Z' }, { endedAt: '2026-03-19T08:00:00Z' }],
    queries: 2,
  },
  { name: 'never checked: null', checks: [], queries: 2 },
];

describe('the last check day gives the same answer as the previous query', () => {
  let app: TestApp;
  const projects: string[] = [];

  beforeAll(async () => {
    app = await startReadsApp();
    const { apiKey, accountId } = await app.createAccount();
    const store = app.running.stores.eventStore;
    for (const { checks } of CASES) {
      const { projectId, ids } = await createProject(app, apiKey, { domain: 'ours.com' }, [
        { keywords: ['a', 'b'], geoCode: 'US', langCode: 'en' },
      ]);
      projects.push(projectId);
      const results: SeededCheck[] = [];
      for (const [i, check] of checks.entries()) {
        const checkId = `${projectId.slice(0, 20)}${String(i).padStart(4, '0')}`;
        const keywordId = ids[i % 2 ? 'b' : 'a']!;
        if (check.queuedAt) {
          const queued: CheckWorkEvent = {
            type: 'CheckQueued',
            data: {
              checkId,
              batchId: 'order',
              projectId,
              accountId,
              keywordId,
              creditsPerCheck: 0,
              requestedAt: new Date(check.queuedAt).toISOString(),
            },
          };
          await store.appendToStream(checkWorkStreamName(`order-${checkId}`), [{ id: randomUUID(), ...queued }], {
            expectedRevision: 'any',
          });
        }
        if (check.endedAt) {
          const at = new Date(check.endedAt).toISOString();
          results.push({
            projectId,
            keywordId,
            checkId,
            at,
            ...(check.failed ? { failedReason: 'blocked' } : { urls: ['https://ours.com/'] }),
          });
        }
      }
      await seedChecks(store, results);
    }
    await app.running.app.get(ProjectionRunner).waitUntilCaughtUp();
  }, 60_000);

  afterAll(() => app?.close());

  it.each(CASES.map((c, i) => [c.name, i] as const))('%s', async (_name, i) => {
    const readStore: ReadStore = app.running.stores.readStore;
    const [row] = await readStore.query<{ date: string; checked: string; failed: string; pending: string }>(PREVIOUS_LAST_CHECK_DAY_QUERY, {
      projectId: projects[i]!,
    });
    const expected = row
      ? { date: row.date, checked: Number(row.checked), failed: Number(row.failed), pending: Number(row.pending) }
      : null;

    const query = jest.spyOn(readStore, 'query');
    try {
      expect(await app.running.app.get(CheckProgressReader).lastCheckDay(projects[i]!, NOW)).toEqual(expected);
      // Only this reader's queries: the app's background work (the volume fetcher's sweep, say) reads the store too.
      expect(query.mock.calls.filter(([sql]) => sql.includes('FROM check_progress'))).toHaveLength(CASES[i]!.queries);
    } finally {
      query.mockRestore();
    }
  });

  it('counts the first case as the checks say', async () => {
    expect(await app.running.app.get(CheckProgressReader).lastCheckDay(projects[0]!, NOW)).toEqual({
      date: '2026-03-18',
      checked: 2,
      failed: 1,
      pending: 1,
    });
  });
});
