import { Logger } from '@nestjs/common';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { assertNever } from '@rank/domain/domain-error';
import type { AppConfig } from '../config/app-config';
import type { Metrics } from '../metrics/metrics';
import { listenRefusal, StartRefusal } from '../start-refusal';
import { acceptsMetricsToken, METRICS_TOKEN_REFUSED } from '../metrics/metrics-token';
import type { ReadinessReport } from './readiness';

export interface OperationsOptions {
  host: string;
  /** `0` picks a free port (see `url`). */
  port: number;
  metrics: Metrics;
  /** METRICS_TOKEN: when set, `/metrics` wants `Authorization: Bearer <token>`. */
  metricsToken: string | undefined;
  /** This process's readiness, for the roles it runs. */
  ready: () => Promise<ReadinessReport>;
  /** Where a failure to answer is told (never the request's headers). */
  onError: (error: unknown) => void;
}

export interface OperationsEndpoint {
  /** `http://host:port`, with the port it listens on. */
  url: string;
  close(): Promise<void>;
}

const PATHS = ['/health', '/ready', '/metrics'] as const;

/** A probe bounds each part to 3 s; a request that takes far longer is a stuck client, not a slow probe. */
const REQUEST_TIMEOUT_MS = 10_000;
/** Probes and a Prometheus server or two: a few connections at once. */
const MAX_CONNECTIONS = 64;

/**
 * `GET /health`, `/ready` and `/metrics` for the apps that serve no API (the distributed projector
 * and scrapers, with OPS_PORT), answering as the api's routes of those names do: liveness that never
 * looks at the stores, readiness that is 503 when a part is not ready, and Prometheus's text behind
 * METRICS_TOKEN. Plain node:http: three fixed routes need no framework, and nothing here reads a
 * request body.
 */
export async function serveOperations(options: OperationsOptions): Promise<OperationsEndpoint> {
  const server = createServer((request, response) => {
    answer(options, request, response).catch((error: unknown) => {
      options.onError(error);
      if (!response.headersSent) send(response, 500, { success: false, message: 'Internal server error' });
      else response.destroy();
    });
  });
  server.requestTimeout = REQUEST_TIMEOUT_MS;
  server.headersTimeout = REQUEST_TIMEOUT_MS;
  server.maxConnections = MAX_CONNECTIONS;
  await listen(server, options.host, options.port).catch((error: unknown) => {
    throw listenRefusal(error, 'OPS_PORT', options.port, options.host);
  });
  const { port } = server.address() as AddressInfo;
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  return {
    url: `http://${host}:${port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

async function answer(options: OperationsOptions, request: IncomingMessage, response: ServerResponse): Promise<void> {
  const path = (request.url ?? '/').split('?')[0]!;
  const method = request.method ?? 'GET';
  if (!isOperationsPath(path)) {
    send(response, 404, { success: false, message: `No route ${method} ${path}` });
    return;
  }
  if (method !== 'GET' && method !== 'HEAD') {
    send(response, 405, { success: false, message: `Method ${method} is not supported on ${path}; use GET` }, { allow: 'GET, HEAD' });
    return;
  }
  switch (path) {
    case '/health':
      send(response, 200, { status: 'ok' });
      return;
    case '/ready': {
      const report = await options.ready();
      send(response, report.status === 'ready' ? 200 : 503, report);
      return;
    }
    case '/metrics': {
      if (!acceptsMetricsToken(options.metricsToken, request.headers.authorization)) {
        send(response, 401, { success: false, message: METRICS_TOKEN_REFUSED });
        return;
      }
      const { contentType, text } = await options.metrics.exposition();
      response.writeHead(200, { 'content-type': contentType, 'content-length': Buffer.byteLength(text) });
      response.end(method === 'HEAD' ? undefined : text);
      return;
    }
    default:
      assertNever(path);
  }
}

function isOperationsPath(path: string): path is (typeof PATHS)[number] {
  return (PATHS as readonly string[]).includes(path);
}

function send(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  response.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    ...headers,
  });
  response.end(response.req.method === 'HEAD' ? undefined : text);
}

function listen(server: Server, host: string, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

/** What an app's start line adds about its endpoint (tests and operators read the URL from it). */
export function describeEndpoint(endpoint: OperationsEndpoint | undefined): string {
  return endpoint ? `; /health, /ready and /metrics on ${endpoint.url}` : '';
}

/**
 * The app's operations endpoint when OPS_PORT is set, else none; failures to answer go to the log
 * under `context`.
 */
export async function operationsEndpointOf(
  config: Pick<AppConfig, 'host' | 'opsPort' | 'metricsToken'>,
  metrics: Metrics,
  ready: () => Promise<ReadinessReport>,
  context: string,
): Promise<OperationsEndpoint | undefined> {
  if (config.opsPort === undefined) return undefined;
  const logger = new Logger(context);
  try {
    return await serveOperations({
      host: config.host,
      port: config.opsPort,
      metrics,
      metricsToken: config.metricsToken,
      ready,
      onError: (error) => logger.error(`an operations request failed: ${messageOf(error)}`),
    });
  } catch (error) {
    // A taken port or a foreign HOST is already a refusal naming the variable; anything else is said here.
    if (error instanceof StartRefusal) throw error;
    throw new StartRefusal(`OPS_PORT ${config.opsPort} cannot be served on HOST ${config.host}: ${messageOf(error)}`);
  }
}

/** An error's message; Node's own errors need not be `instanceof Error` where the code runs in another realm (jest). */
const messageOf = (error: unknown): string =>
  typeof error === 'object' && error !== null && typeof (error as { message?: unknown }).message === 'string'
    ? (error as { message: string }).message
    : String(error);
