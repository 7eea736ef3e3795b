import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LocalRedis, startRedisServer } from '@rank/platform/rate-limits/testing/redis-server';
import { AppProcess, startAppProcess } from '../support/app-process';
import { TEST_ADMIN_TOKEN } from '../support/test-app';
import { waitFor } from '@rank/platform/testing/wait-for';

/**
 * Two api replicas, each a process of its own, on one event log and one Redis (REDIS_URL): an
 * account's serp-check bucket is one bucket whichever replica a call lands on.
 */
describe('Rate limits across api replicas (REDIS_URL)', () => {
  let redis: LocalRedis;
  const replicas: AppProcess[] = [];
  const dataDir = mkdtempSync(join(tmpdir(), 'rank-tracker-redis-'));

  beforeAll(async () => {
    redis = await startRedisServer();
    for (const name of ['a', 'b']) {
      replicas.push(
        await startAppProcess({
          DATA_DIR: dataDir,
          CHDB_PATH: join(dataDir, `clickhouse-${name}`),
          ROLES: 'api,projections',
          REDIS_URL: redis.url,
          ADMIN_TOKEN: TEST_ADMIN_TOKEN,
          GOOGLE_BASE_URL: 'http://127.0.0.1:9',
          // No scraper anywhere: each call waits this long and answers serp [] (the limit is what is tested).
          // The stored-volume read shares the wait: at 100 ms a loaded CI machine once missed both, a 502.
          SERP_CHECK_TIMEOUT_MS: '1000',
          LOG_LEVEL: 'log',
        }),
      );
    }
  }, 180_000);

  afterAll(async () => {
    for (const replica of replicas) await replica.kill('SIGTERM');
    await redis.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const call = async (replica: AppProcess, method: string, path: string, key: string, body?: unknown) => {
    const response = await fetch(new URL(path, replica.url), {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as any, retryAfter: response.headers.get('retry-after') };
  };

  it('lets 10 serp-checks through across both replicas and refuses the 11th on either', async () => {
    const [a, b] = replicas as [AppProcess, AppProcess];
    const opened = await call(a, 'POST', '/admin/accounts', TEST_ADMIN_TOKEN, { name: 'Replicas' });
    expect(opened.status).toBe(201);
    const key = opened.body.apiKey as string;
    // Replica b learns of the account from the shared log.
    await waitFor(
      () => call(b, 'GET', '/api/user/capacity', key),
      (r) => r.status === 200,
      30_000,
      200,
    );

    const remaining: number[] = [];
    for (let i = 0; i < 10; i++) {
      const response = await call(i % 2 === 0 ? a : b, 'POST', '/api/tools/serp-check', key, { keyword: 'eggs', geo: 'US', lang: 'en' });
      expect(response.status).toBe(200);
      remaining.push(response.body.remaining);
    }
    expect(remaining).toEqual([9, 8, 7, 6, 5, 4, 3, 2, 1, 0]);
    for (const replica of [a, b]) {
      const refused = await call(replica, 'POST', '/api/tools/serp-check', key, { keyword: 'eggs', geo: 'US', lang: 'en' });
      expect(refused.status).toBe(429);
      expect(refused.body).toMatchObject({ success: false, limit: 10, window: 60 });
      expect(refused.retryAfter).toBe(String(refused.body.retryAfter));
    }
    expect((await call(b, 'GET', '/api/user/capacity', key)).body.limits.rateLimits.serpCheck.remaining).toBe(0);
  }, 120_000);
});
