import { request as httpRequest } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ProjectionRunner } from '@rank/projector/projection-runner';
import { CheckWorkerLifecycle } from '@rank/tracking/check/check-worker.lifecycle';
import { FakeGoogle } from '@rank/serp/fetcher/test-support/fake-google';
import { readSavedSerp } from '@rank/serp/fetcher/test-support/saved-serp';
import { checkResultsOf } from '../support/seed-checks';
import { waitFor } from '@rank/platform/testing/wait-for';
import { waitUntilLogProjected } from '../support/projected-log';
import { startAppProcess } from '../support/app-process';
import { startTestApp, TEST_ADMIN_TOKEN, TestApp } from '../support/test-app';

const METRICS_TOKEN = 'metrics-token-0123456789';

describe('Operations: /metrics, /ready and request ids', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ env: { METRICS_TOKEN } });
  });
  afterAll(() => app.close());

  it('serves Prometheus metrics to the metrics token only, with the HTTP histogram by route pattern', async () => {
    const { apiKey } = await app.createAccount();
    const project = await app.request('POST', '/api/projects', { key: apiKey, body: { name: 'Metrics', domain: 'example.com' } });
    await app.request('GET', `/api/projects/${project.body.project._id}`, { key: apiKey });

    expect((await app.request('GET', '/metrics')).status).toBe(401);
    expect((await app.request('GET', '/metrics', { key: 'wrong-token-0123456789' })).status).toBe(401);
    const scraped = await app.request('GET', '/metrics', { key: METRICS_TOKEN });
    expect(scraped.status).toBe(200);
    expect(scraped.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(scraped.text).toMatch(/rank_http_request_duration_seconds_count\{method="GET",route="\/api\/projects\/:id",status="200"\} 1/);
    expect(scraped.text).toMatch(/rank_event_store_append_seconds_count\{outcome="ok"\} \d+/);
    expect(scraped.text).toMatch(/rank_projection_lag_events\{projection="read-models"\} \d+/);
    expect(scraped.text).toMatch(/rank_projection_dead_letters\{projection="read-models"\} 0/);
    expect(scraped.text).not.toContain(apiKey);

    const openapi = await app.request('GET', '/api/openapi.json');
    expect(Object.keys(openapi.body.paths)).not.toContain('/metrics');
    expect(Object.keys(openapi.body.paths)).not.toContain('/ready');
  });

  it('counts the operator API refusing an address that sent too many wrong tokens', async () => {
    for (let i = 0; i < 11; i++) await app.request('GET', '/admin/accounts/x', { key: `wrong-operator-token-${i}-0123456789abcdef` });
    const scraped = await app.request('GET', '/metrics', { key: METRICS_TOKEN });
    expect(scraped.text).toMatch(/rank_rate_limit_refusals_total\{limiter="admin-token"\} [1-9]/);
  });

  it("returns the caller's well-formed X-Request-Id, and a new one for a malformed or missing one", async () => {
    const kept = await app.request('GET', '/health', { headers: { 'x-request-id': 'lb-7f3a:42' } });
    expect(kept.headers.get('x-request-id')).toBe('lb-7f3a:42');
    const replaced = await app.request('GET', '/health', { headers: { 'x-request-id': 'two words "quoted"' } });
    expect(replaced.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const tooLong = await app.request('GET', '/health', { headers: { 'x-request-id': 'a'.repeat(129) } });
    expect(tooLong.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect((await app.request('GET', '/health')).headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('/ready names each part of the roles it runs, all ready', async () => {
    // The first test's project starts background work (suggestions, domain data) that appends events a
    // moment later, so the lag is asked again until those are projected too.
    await waitUntilLogProjected(app.running.app.get(ProjectionRunner), app.running.stores.eventStore);
    const ready = await waitFor(
      () => app.request('GET', '/ready'),
      (answer) => answer.body?.parts?.projections?.['read-models']?.events === 0,
    );
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual({
      status: 'ready',
      parts: {
        eventStore: { ok: true },
        readStore: { ok: true },
        projections: { ok: true, maxLag: { events: 10_000, seconds: 300 }, 'read-models': { ok: true, events: 0, seconds: 0 } },
      },
    });
  });
});

describe('Metrics of checks run by the scraper role', () => {
  it('counts a completed check, a blocked one with its egress, the page loads and the queue', async () => {
    const google = await FakeGoogle.start();
    google.reset((request) => ({
      kind: 'page',
      html: readSavedSerp(
        (request.query.get('q') ?? '').startsWith('blocked')
          ? 'zlurad__serp-parser__desktop-recaptcha.html'
          : 'fra50__persistent_browser_service__ai_overview.html',
      ),
    }));
    const app = await startTestApp({
      env: { ROLES: 'api,projections,scraper', GOOGLE_BASE_URL: google.baseUrl, SCRAPER_BLOCK_REST_MS: '1' },
    });
    try {
      const { apiKey: key } = await app.createAccount({ balance: 10 });
      const project = await app.request('POST', '/api/projects', { key, body: { name: 'Eggs', domain: 'simplyrecipes.com' } });
      const projectId = project.body.project._id as string;
      const added = await app.request('POST', '/api/projects/keywords', {
        key,
        body: { projectId, keywords: ['how to boil eggs', 'blocked query'], geoCode: 'US', langCode: 'en' },
      });
      expect(
        (await app.request('POST', '/api/scrape/new-keywords', { key, body: { projectId, keywordIds: added.body.project.keywords } }))
          .status,
      ).toBe(200);
      await waitFor(
        () => checkResultsOf(app.running.stores.eventStore, projectId),
        (events) => events.length >= 2,
      );
      await app.running.app.get(CheckWorkerLifecycle).current!.idle();

      const metrics = (await app.request('GET', '/metrics')).text;
      expect(metrics).toContain('rank_checks_total{outcome="completed",reason=""} 1');
      expect(metrics).toContain('rank_checks_total{outcome="failed",reason="blocked"} 1');
      expect(metrics).toMatch(/rank_block_pages_total\{egress="direct"\} [1-9]/);
      expect(metrics).toMatch(/rank_scraper_page_load_seconds_count\{outcome="loaded"\} [1-9]/);
      expect(metrics).toContain('rank_checks_queued_total 2');
      expect(metrics).toContain('rank_checks_in_flight 0');
      expect(metrics).toMatch(
        /rank_http_request_duration_seconds_bucket\{le="[^"]+",method="POST",route="\/api\/scrape\/new-keywords",status="200"\} 1/,
      );

      const ready = await app.request('GET', '/ready');
      expect(ready.body.parts.browser).toMatchObject({ ok: true, launched: true });
    } finally {
      await app.close();
      await google.close();
    }
  }, 60_000);
});

describe('/ready when a part is not ready', () => {
  it('is 503 with the projection behind the log past READY_MAX_LAG_EVENTS', async () => {
    const app = await startTestApp({ env: { READY_MAX_LAG_EVENTS: '0' } });
    try {
      const runner = app.running.app.get(ProjectionRunner);
      await runner.waitUntilCaughtUp();
      expect((await app.request('GET', '/ready')).status).toBe(200);
      // The projection stops; an account opened now is in the log and not in the read models.
      await runner.stop();
      await app.createAccount();
      const ready = await app.request('GET', '/ready');
      expect(ready.status).toBe(503);
      expect(ready.body.status).toBe('not ready');
      expect(ready.body.parts.eventStore).toEqual({ ok: true });
      expect(ready.body.parts.projections).toMatchObject({
        ok: false,
        'read-models': { ok: false, events: expect.any(Number) },
        error: expect.stringMatching(/behind the log/),
      });
      expect(ready.body.parts.projections['read-models'].events).toBeGreaterThan(0);
    } finally {
      await app.close();
    }
  });
});

describe('JSON logs of the service in a process of its own', () => {
  it('writes one JSON line per request, with its request id, route and account, and never a key or the operator token', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'rank-tracker-logs-'));
    // stdout is a pipe, not a terminal: JSON lines without LOG_FORMAT.
    const child = await startAppProcess({
      DATA_DIR: dataDir,
      CHDB_PATH: join(dataDir, 'clickhouse'),
      ADMIN_TOKEN: TEST_ADMIN_TOKEN,
      ROLES: 'api,projections',
      // The dropped serp-check's handler ends soon after, so the closing does not wait for it.
      SERP_CHECK_TIMEOUT_MS: '1000',
    });
    try {
      const call = async (method: string, path: string, token: string, body?: unknown, headers: Record<string, string> = {}) => {
        const response = await fetch(new URL(path, child.url), {
          method,
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...headers },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        return { status: response.status, requestId: response.headers.get('x-request-id'), body: (await response.json()) as any };
      };
      const opened = await call('POST', '/admin/accounts', TEST_ADMIN_TOKEN, { name: 'Logged' });
      const apiKey = opened.body.apiKey as string;
      const accountId = opened.body.account._id as string;
      const listed = await call('GET', `/api/projects?apiKey=${apiKey}&token=${TEST_ADMIN_TOKEN}`, apiKey, undefined, {
        'x-request-id': 'trace-123',
      });
      expect(listed.status).toBe(200);
      expect(listed.requestId).toBe('trace-123');
      await call('GET', '/api/projects', 'not-a-key');
      // Clients that go away before their answer, in the middle of a body and after a whole one
      // (serp-check waits for a scraper this process does not run): before, no line at all.
      await new Promise<void>((resolve) => {
        const dropped = httpRequest(new URL('/api/projects', child.url), {
          method: 'POST',
          headers: {
            authorization: `Bearer ${apiKey}`,
            'content-type': 'application/json',
            'content-length': '100',
            'x-request-id': 'dropped-1',
          },
        });
        dropped.on('error', () => resolve());
        dropped.write('{"name": "', () => setTimeout(() => (dropped.destroy(), resolve()), 200));
      });
      await new Promise<void>((resolve) => {
        const waiting = httpRequest(new URL('/api/tools/serp-check', child.url), {
          method: 'POST',
          headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json', 'x-request-id': 'dropped-2' },
        });
        waiting.on('error', () => resolve());
        waiting.end(JSON.stringify({ keyword: 'eggs', geo: 'US', lang: 'en' }), () =>
          setTimeout(() => (waiting.destroy(), resolve()), 300),
        );
      });

      // The access line is written once the answer has gone: give it a moment.
      await new Promise((resolve) => setTimeout(resolve, 300));
      const output = child.output();
      expect(output).not.toContain(apiKey);
      expect(output).not.toContain(apiKey.split('_')[0]);
      expect(output).not.toContain(TEST_ADMIN_TOKEN);
      expect(output).not.toMatch(/\u001b\[/);

      const lines = output.split('\n').filter((line) => line.trim() !== '');
      const parsed = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
      expect(parsed.some((line) => /listening on http/.test(String(line.message)))).toBe(true);
      const access = parsed.filter((line) => line.context === 'Http');
      expect(access.length).toBeGreaterThanOrEqual(3);
      for (const line of access)
        expect(line).toMatchObject({
          level: 'log',
          requestId: expect.any(String),
          method: expect.any(String),
          route: expect.any(String),
          status: expect.any(Number),
          durationMs: expect.any(Number),
        });
      expect(access).toContainEqual(
        expect.objectContaining({ requestId: 'trace-123', method: 'GET', route: '/api/projects', status: 200, accountId }),
      );
      expect(access).toContainEqual(expect.objectContaining({ method: 'POST', route: '/admin/accounts', status: 201 }));
      expect(access).toContainEqual(expect.objectContaining({ route: '/api/projects', status: 401 }));
      expect(access).toContainEqual(
        expect.objectContaining({ requestId: 'dropped-1', method: 'POST', route: '/api/projects', status: 499 }),
      );
      expect(access).toContainEqual(expect.objectContaining({ requestId: 'dropped-2', route: '/api/tools/serp-check', status: 499 }));
      // One line a request, whatever ended it.
      const ids = access.map((line) => line.requestId);
      expect(ids.length).toBe(new Set(ids).size);
    } finally {
      await child.kill('SIGTERM');
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 90_000);
});
