import fc from 'fast-check';
import { ProjectionRunner } from '@rank/projector/projection-runner';
import { CheckScheduler } from '@rank/tracking/schedule/check-scheduler';
import { waitUntilLogProjected } from '../support/projected-log';
import { startTestApp, TestApp, TEST_ADMIN_TOKEN } from '../support/test-app';
import { FuzzRequest, FuzzTargets, hostileRequests, operationsOf, percentEncode } from './hostile-requests';

/**
 * Malformed requests against every route of the OpenAPI document and the operator API, on the real
 * app with the real embedded stores. `npm test` sends about a thousand; `npm run fuzz` sends
 * FUZZ_REQUESTS (10,000 by default there). FUZZ_SEED replays a run.
 *
 * What must hold: no 5xx; every error is JSON in the service's shape (`success: false` and a message); nothing a request could write stalls
 * the projections (the checkpoint reaches the log's end, nothing is dead-lettered); and a project
 * created afterwards is still scheduled.
 */
const REQUESTS = Number(process.env.FUZZ_REQUESTS ?? 1_000);
const SEED = Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31);
const AT_ONCE = 4;

const clock = {
  current: new Date('2026-03-10T11:00:00.000Z'),
  now() {
    return this.current;
  },
};

interface Outcome {
  request: FuzzRequest;
  status: number;
  problem?: string;
}

async function send(baseUrl: string, request: FuzzRequest): Promise<Outcome> {
  const query = request.query.map(([k, v]) => `${percentEncode(k)}=${percentEncode(v)}`).join('&');
  try {
    const response = await fetch(`${baseUrl}${request.path}${query ? `?${query}` : ''}`, {
      method: request.method,
      headers: request.headers,
      body: request.body,
      signal: AbortSignal.timeout(30_000),
    });
    const text = await response.text();
    if (response.status >= 500) return { request, status: response.status, problem: `server error: ${text.slice(0, 300)}` };
    if (response.status >= 400) {
      if (!(response.headers.get('content-type') ?? '').includes('application/json'))
        return { request, status: response.status, problem: `error not JSON: ${text.slice(0, 200)}` };
      let error: { success?: unknown; message?: unknown };
      try {
        error = JSON.parse(text) as typeof error;
      } catch {
        return { request, status: response.status, problem: `error body does not parse: ${text.slice(0, 200)}` };
      }
      if (typeof error.message !== 'string' || error.message === '')
        return { request, status: response.status, problem: `error without a message: ${text.slice(0, 200)}` };
      // The service's error shape, not a framework's (Fastify's own had `code` and `statusCode` instead).
      if (error.success !== false)
        return { request, status: response.status, problem: `error without success: false: ${text.slice(0, 200)}` };
    }
    return { request, status: response.status };
  } catch (error) {
    return { request, status: 0, problem: `no answer: ${(error as Error).message}` };
  }
}

const describeRequest = (o: Outcome) =>
  `${o.status} ${o.request.route} -> ${o.request.method} ${o.request.path.slice(0, 120)} q=${JSON.stringify(o.request.query).slice(0, 200)} body=${JSON.stringify(o.request.body?.slice(0, 300))}: ${o.problem}`;

describe(`Fuzz: ${REQUESTS} hostile requests over every route (seed ${SEED})`, () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await startTestApp({ clock });
  });
  afterAll(() => app.close());

  it(
    'never answers 5xx, every error is JSON with a message, and the read models and the scheduler keep up',
    async () => {
      const document = (await app.request('GET', '/api/openapi.json')).body;
      const operations = operationsOf(document);
      expect(operations.length).toBeGreaterThanOrEqual(25);

      const { apiKey } = await app.createAccount({ name: 'Fuzzer', balance: 1000 });
      const { accountId: otherAccountId } = await app.createAccount({ name: 'Bystander' });
      // Opened now: the fuzz's wrong operator tokens get this address rate-limited on /admin for a while.
      const { apiKey: lateKey } = await app.createAccount({ name: 'Late' });
      const projectIds: string[] = [];
      for (const name of ['One', 'Two', 'Three']) {
        projectIds.push(
          (await app.request('POST', '/api/projects', { key: apiKey, body: { name, domain: `${name.toLowerCase()}.example` } })).body
            .project._id,
        );
      }
      await app.request('POST', '/api/projects/keywords', {
        key: apiKey,
        body: { projectId: projectIds[0], keywords: ['coffee', 'tea'], geoCode: 'US', langCode: 'en' },
      });
      const folderId = (await app.request('POST', '/api/projects/folders', { key: apiKey, body: { name: 'Clients' } })).body.folder?._id;
      const targets: FuzzTargets = {
        apiKey,
        adminToken: TEST_ADMIN_TOKEN,
        projectIds,
        folderIds: folderId ? [folderId] : [],
        otherAccountId,
      };

      const requests = fc.sample(hostileRequests(operations, targets), { numRuns: REQUESTS, seed: SEED });
      const outcomes: Outcome[] = [];
      let next = 0;
      const started = Date.now();
      await Promise.all(
        Array.from({ length: AT_ONCE }, async () => {
          while (next < requests.length) outcomes.push(await send(app.url, requests[next++]!));
        }),
      );
      const seconds = (Date.now() - started) / 1000;

      const byClass = new Map<string, number>();
      for (const o of outcomes) byClass.set(`${Math.floor(o.status / 100)}xx`, (byClass.get(`${Math.floor(o.status / 100)}xx`) ?? 0) + 1);
      const routesHit = new Set(outcomes.map((o) => o.request.route)).size;
      console.log(
        `fuzz: ${outcomes.length} requests in ${seconds.toFixed(1)} s (seed ${SEED}) over ${routesHit}/${operations.length} routes; ` +
          [...byClass]
            .sort()
            .map(([k, n]) => `${k} ${n}`)
            .join(', '),
      );

      const problems = outcomes.filter((o) => o.problem);
      expect(problems.map(describeRequest).slice(0, 20)).toEqual([]);
      expect(routesHit).toBe(operations.length);
      // The run did reach the stores: some writes were accepted, not only refused.
      expect(byClass.get('2xx') ?? 0).toBeGreaterThan(0);

      // Whatever was accepted, the projections took it all: the checkpoint is at the log's end.
      const runner = app.running.app.get(ProjectionRunner);
      expect(await waitUntilLogProjected(runner, app.running.stores.eventStore)).toBeUndefined();
      expect(runner.deadLetters).toBe(0);

      // And the scheduler still schedules a project created after the fuzz.
      const late = await app.request('POST', '/api/projects', {
        key: lateKey,
        body: { name: 'Late', domain: 'late.example', updateTime: 12, updateTimezone: 'UTC' },
      });
      const lateId = late.body.project._id as string;
      await app.request('POST', '/api/projects/keywords', {
        key: lateKey,
        body: { projectId: lateId, keywords: ['late'], geoCode: 'US', langCode: 'en' },
      });
      await runner.waitUntilCaughtUp(60_000);
      clock.current = new Date('2026-03-10T12:00:00.000Z');
      await app.running.app.get(CheckScheduler).requestDueSlots();
      const schedule = (await app.running.stores.eventStore.readStream(`schedule-${lateId}`)).map((e) => e.type);
      expect(schedule).toContain('ScheduledCheckRequested');
    },
    120_000 + REQUESTS * 100,
  );
});
