import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { createAppLogger } from '@rank/platform/logging/app-logger';
import { Metrics } from '@rank/platform/metrics/metrics';
import { listenRefusal } from '@rank/platform/start-refusal';
import { AppModule } from './app.module';
import type { AppConfig } from '@rank/platform/config/app-config';
import { createValidationPipe } from './platform/http/validation';
import { answerClientError } from './platform/http/client-errors';
import { answerFrameworkError, MAX_PATH_PARAMETER_LENGTH, refuseIllFormedQuery } from './platform/http/url-encoding';
import { WellFormedInputPipe } from './platform/http/well-formed-input';
import { parseJsonBodies } from './platform/http/json-body';
import { addSecurityHeaders } from './platform/http/security-headers';
import { compressAnswers } from './platform/http/compression';
import { allowMcpOrigins } from './mcp/mcp-cors';
import { logRequests, requestIdOf } from './platform/http/access-log';
import { checkOperatorTokenBeforeBody, OperatorToken } from './accounts/admin/operator-token';
import { ApiKeyAuthenticator, authenticateBeforeBody } from './platform/auth/api-key-authenticator';
import { refuseMethodsOfLiteralPaths, RouteRegistry } from './platform/http/route-registry';
import { setupOpenApi } from './platform/openapi';
import { loadPlans } from '@rank/platform/plans/load-plans';
import { openStores, Stores } from '@rank/platform/stores/open-stores';
import { Clock, systemClock } from '@rank/platform/tokens';

export interface RunningApp {
  app: NestFastifyApplication;
  /** Base URL the server listens on, e.g. http://127.0.0.1:3000 */
  url: string;
  stores: Stores;
  /**
   * Stops the server and lets background work finish (flushes included), then runs `beforeStoresClose`
   * (tests drop their database there) and closes the stores.
   */
  close(options?: { beforeStoresClose?: (stores: Stores) => Promise<void> }): Promise<void>;
}

/** Builds and starts the whole service for a configuration; used by `npm start` and by the tests. */
export async function createApp(config: AppConfig, overrides: { clock?: Clock } = {}): Promise<RunningApp> {
  const plans = loadPlans(config.plansFile);
  // One registry per app: tests run several apps in one process.
  const metrics = new Metrics();
  const stores = await openStores(config, metrics);
  let started: NestFastifyApplication | undefined;
  try {
    const routes = new RouteRegistry();
    const adapter = new FastifyAdapter({
      bodyLimit: 5 * 1024 * 1024,
      routerOptions: { ignoreTrailingSlash: true, maxParamLength: MAX_PATH_PARAMETER_LENGTH },
      clientErrorHandler: answerClientError,
      frameworkErrors: answerFrameworkError,
      // Our own request ids (X-Request-Id when well formed), checked before they reach a log line.
      requestIdHeader: false,
      genReqId: requestIdOf,
      // A request (headers and body) must arrive whole within the timeout: slow bodies are cut off
      // with a 408. Node checks the timeout every connectionsCheckingInterval.
      requestTimeout: config.http.requestTimeoutMs,
      // A socket idle this long is closed, answer or not: a live answer must come first (serp-check
      // waits up to SERP_CHECK_TIMEOUT_MS, traffic-check up to a minute for PageSpeed Insights).
      connectionTimeout: Math.max(config.http.requestTimeoutMs * 2, config.serpCheckTimeoutMs + 30_000, 120_000),
      http: { connectionsCheckingInterval: Math.min(1_000, config.http.requestTimeoutMs), headersTimeout: config.http.requestTimeoutMs },
    });
    const fastify = adapter.getInstance();
    fastify.addHook('onRoute', (route) => routes.add(route.method as string | string[], route.url));
    logRequests(fastify, metrics);
    // Before every other check: MCP wants a page of a foreign origin refused with 403, whatever else is wrong.
    allowMcpOrigins(fastify, config.mcpAllowedOrigins);
    refuseMethodsOfLiteralPaths(fastify, routes);
    parseJsonBodies(fastify);
    refuseIllFormedQuery(fastify);
    addSecurityHeaders(fastify);

    const app = (started = await NestFactory.create<NestFastifyApplication>(
      AppModule.forRoot({ config, stores, plans, clock: overrides.clock ?? systemClock, routes, metrics }),
      adapter,
      // The JSON body parser is ours (parseJsonBodies), not Nest's.
      { logger: createAppLogger(config), bodyParser: false },
    ));
    await compressAnswers(app);
    authenticateBeforeBody(fastify, app.get(ApiKeyAuthenticator));
    if (config.adminToken !== undefined) checkOperatorTokenBeforeBody(fastify, app.get(OperatorToken));
    app.useGlobalPipes(new WellFormedInputPipe(), createValidationPipe());
    setupOpenApi(app);
    await app.listen(config.port, config.host).catch((error: unknown) => {
      throw listenRefusal(error, 'PORT', config.port, config.host);
    });
    app.getHttpServer().maxConnections = config.http.maxConnections;
    const address = app.getHttpServer().address();
    const port = typeof address === 'object' && address ? address.port : config.port;
    const url = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`;

    let closing: Promise<void> | undefined;
    const close = (options: { beforeStoresClose?: (stores: Stores) => Promise<void> } = {}) =>
      (closing ??= (async () => {
        await app.close();
        await options.beforeStoresClose?.(stores);
        await stores.readStore.close();
        await stores.eventStore.close();
      })());
    return { app, url, stores, close };
  } catch (error) {
    // A start refused part-way (a lifecycle hook threw) stops what had started before the stores close.
    await started?.close().catch(() => undefined);
    await stores.readStore.close().catch(() => undefined);
    await stores.eventStore.close().catch(() => undefined);
    throw error;
  }
}
