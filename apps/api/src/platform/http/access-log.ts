import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { Logger } from '@nestjs/common';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Metrics } from '@rank/platform/metrics/metrics';
import { CALLER, type Caller } from '../auth/caller';

/** An incoming `X-Request-Id` is kept when it is this plain: no spaces, quotes or control characters to smuggle into a log. */
const WELL_FORMED_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * The request id of a request: the caller's `X-Request-Id` when well formed (a proxy's or a client's
 * id ties their logs to ours), else a new UUID. Fastify's `genReqId`.
 */
export function requestIdOf(request: IncomingMessage): string {
  const sent = request.headers['x-request-id'];
  return typeof sent === 'string' && WELL_FORMED_REQUEST_ID.test(sent) ? sent : randomUUID();
}

/** The route a request matched, as its pattern (`/api/projects/:id`): the raw URL would carry ids and query secrets. */
const routeOf = (request: FastifyRequest) => request.routeOptions.url ?? '(unmatched)';

/**
 * One access line per request, when its response closes: method, route pattern, status, duration,
 * the account when a key authenticated it, and the request id, which also goes back in the
 * `X-Request-Id` header. Neither headers nor the query are logged. The same numbers feed
 * `rank_http_request_duration_seconds`. A response closes once, whether it was sent or its
 * connection went first (the client went away, before or after sending its body): Fastify runs no
 * onResponse for the latter, whose line says 499 (nginx's "client closed request").
 */
export function logRequests(fastify: FastifyInstance, metrics: Metrics): void {
  const logger = new Logger('Http');
  const log = (request: FastifyRequest, status: number, durationMs: number) => {
    const route = routeOf(request);
    metrics.httpRequestDuration.observe({ method: request.method, route, status: String(status) }, durationMs / 1000);
    const caller = (request as unknown as Record<string, Caller | undefined>)[CALLER];
    logger.log({
      message: `${request.method} ${route} ${status} ${Math.round(durationMs)} ms`,
      requestId: request.id,
      method: request.method,
      route,
      status,
      durationMs: Math.round(durationMs * 10) / 10,
      ...(caller?.kind === 'account' ? { accountId: caller.accountId } : {}),
    });
  };
  // A callback hook, not an async one: it runs on every request, and a promise each would cost them all.
  fastify.addHook('onRequest', (request, reply, done) => {
    const startedAt = performance.now();
    void reply.header('x-request-id', request.id);
    reply.raw.once('close', () =>
      log(request, reply.raw.writableFinished ? reply.statusCode : CLIENT_CLOSED_REQUEST, performance.now() - startedAt),
    );
    done();
  });
}

/** The status an access line gives a request whose client went away before the answer (nginx's). */
const CLIENT_CLOSED_REQUEST = 499;
