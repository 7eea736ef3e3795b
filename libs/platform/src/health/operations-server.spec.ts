import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Metrics } from '../metrics/metrics';
import { METRICS_TOKEN_REFUSED } from '../metrics/metrics-token';
import { operationsEndpointOf, OperationsEndpoint, serveOperations } from './operations-server';
import type { ReadinessReport } from './readiness';

const TOKEN = 'a-metrics-token-0123';

describe('the operations endpoint of the projector and scraper apps', () => {
  let endpoint: OperationsEndpoint;
  let report: ReadinessReport | Error;
  const errors: unknown[] = [];
  const metrics = new Metrics();

  beforeAll(async () => {
    endpoint = await serveOperations({
      host: '127.0.0.1',
      port: 0,
      metrics,
      metricsToken: TOKEN,
      ready: async () => {
        if (report instanceof Error) throw report;
        return report;
      },
      onError: (error) => errors.push(error),
    });
  });
  afterAll(() => endpoint.close());

  const ask = async (path: string, init: RequestInit = {}) => {
    const response = await fetch(`${endpoint.url}${path}`, init);
    const text = await response.text();
    return { status: response.status, headers: response.headers, text, json: () => JSON.parse(text) as Record<string, unknown> };
  };

  it('listens where it says, on the port it picked', () => {
    expect(endpoint.url).toMatch(/^http:\/\/127\.0\.0\.1:[1-9]\d*$/);
  });

  it('/health is alive whatever the stores do, and ignores a query', async () => {
    report = new Error('the stores are down');
    const health = await ask('/health?probe=1');
    expect(health.status).toBe(200);
    expect(health.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(health.json()).toEqual({ status: 'ok' });
    const head = await ask('/health', { method: 'HEAD' });
    expect([head.status, head.text, head.headers.get('content-length')]).toEqual([200, '', '15']);
  });

  it('/ready is 200 with the parts when ready, 503 with them when not', async () => {
    report = { status: 'ready', parts: { eventStore: { ok: true } } };
    expect(await ask('/ready')).toMatchObject({ status: 200, text: JSON.stringify(report) });
    report = { status: 'not ready', parts: { eventStore: { ok: true }, browser: { ok: false, error: 'resting' } } };
    expect(await ask('/ready')).toMatchObject({ status: 503, text: JSON.stringify(report) });
  });

  it('a readiness that fails is a 500 that shows nothing of it, and is told to the log', async () => {
    report = new Error('secret internals');
    errors.length = 0;
    const failed = await ask('/ready');
    expect(failed.status).toBe(500);
    expect(failed.json()).toEqual({ success: false, message: 'Internal server error' });
    expect(errors).toEqual([report]);
  });

  it('/metrics wants the metrics token, then gives Prometheus text', async () => {
    metrics.checksQueued.inc(3);
    for (const authorization of [undefined, 'Bearer wrong-token', `Basic ${TOKEN}`, TOKEN]) {
      const refused = await ask('/metrics', { headers: authorization ? { authorization } : {} });
      expect(refused.status).toBe(401);
      expect(refused.json()).toEqual({ success: false, message: METRICS_TOKEN_REFUSED });
    }
    const scraped = await ask('/metrics', { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(scraped.status).toBe(200);
    expect(scraped.headers.get('content-type')).toContain('text/plain');
    expect(scraped.text).toContain('rank_checks_queued_total 3');
  });

  it('answers another method with 405 and Allow, and another path with 404, both as JSON naming them', async () => {
    const posted = await ask('/ready', { method: 'POST', body: '{}' });
    expect(posted.status).toBe(405);
    expect(posted.headers.get('allow')).toBe('GET, HEAD');
    expect(posted.json()).toEqual({ success: false, message: 'Method POST is not supported on /ready; use GET' });
    const unknown = await ask('/api/projects?x=1');
    expect(unknown.status).toBe(404);
    expect(unknown.json()).toEqual({ success: false, message: 'No route GET /api/projects' });
  });
});

describe('operationsEndpointOf', () => {
  const ready = async (): Promise<ReadinessReport> => ({ status: 'ready', parts: {} });

  it('serves nothing without OPS_PORT', async () => {
    expect(
      await operationsEndpointOf({ host: '127.0.0.1', opsPort: undefined, metricsToken: undefined }, new Metrics(), ready, 'Test'),
    ).toBe(undefined);
  });

  it('serves /metrics to anyone without METRICS_TOKEN, and closes with a connection still open', async () => {
    const endpoint = (await operationsEndpointOf(
      { host: '127.0.0.1', opsPort: 0, metricsToken: undefined },
      new Metrics(),
      ready,
      'Test',
    ))!;
    const scraped = await fetch(`${endpoint.url}/metrics`, { keepalive: true });
    expect(scraped.status).toBe(200);
    await scraped.text();
    await endpoint.close();
    await expect(fetch(`${endpoint.url}/health`)).rejects.toThrow();
  });

  it('a port already taken stops the start with a message naming OPS_PORT', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const { port } = taken.address() as AddressInfo;
    try {
      await expect(
        operationsEndpointOf({ host: '127.0.0.1', opsPort: port, metricsToken: undefined }, new Metrics(), ready, 'Test'),
      ).rejects.toThrow(`OPS_PORT ${port} on HOST 127.0.0.1 is in use by another process: stop it, or set another OPS_PORT`);
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  });
});
