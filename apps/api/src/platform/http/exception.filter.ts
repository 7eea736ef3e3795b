import { ArgumentsHost, Catch, ExceptionFilter, HttpException, HttpStatus, Logger } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { DomainError, DomainErrorKind } from '@rank/domain/domain-error';
import { QueryAbandoned, ReadStoreClosed } from '@rank/read-store/read-gate';
import { unreachableStoreOf } from '@rank/platform/stores/unreachable-store';
import { methodNotAllowed, RouteRegistry } from './route-registry';

const STATUS_OF_KIND: Record<DomainErrorKind, number> = { invalid: 400, 'not-found': 404, conflict: 409, forbidden: 403 };

/**
 * The one place where errors become responses: every error body is JSON with a `message`
 * (plus `success: false` and any fields the spec adds, such as `planRequired`). A 500 says nothing
 * about internals; the details go to the log.
 */
@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  private readonly logger = new Logger('Errors');

  constructor(private readonly routes: RouteRegistry) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const reply = host.switchToHttp().getResponse<FastifyReply>();
    const request = host.switchToHttp().getRequest<FastifyRequest>();
    // A client that hung up while its answer was on its way (a compressed one ends in a premature
    // close): nobody to answer, and nothing wrong with the service.
    // Or one that went before its reads started: they were not run (the access log says 499); or
    // before the service stopped, which refused its reads.
    if (
      (exception as { code?: unknown } | null)?.code === 'ERR_STREAM_PREMATURE_CLOSE' ||
      exception instanceof QueryAbandoned ||
      (exception instanceof ReadStoreClosed && reply.raw.destroyed)
    ) {
      this.logger.debug(`${request.method} ${request.url.split('?')[0]}: the client went away before its answer`);
      return;
    }
    const { status, body, headers } = this.toResponse(exception, request);
    // A failure of the service is logged even when its client has gone meanwhile; only the answer is not sent.
    if (status >= 500) {
      this.logger.error(
        `${request.method} ${request.url.split('?')[0]} failed`,
        exception instanceof Error ? exception.stack : String(exception),
      );
    }
    if (reply.raw.destroyed) return;
    for (const [name, value] of Object.entries(headers)) void reply.header(name, value);
    void reply.status(status).send(body);
  }

  private toResponse(
    exception: unknown,
    request: FastifyRequest,
  ): { status: number; body: Record<string, unknown>; headers: Record<string, string> } {
    if (exception instanceof DomainError) {
      return {
        status: STATUS_OF_KIND[exception.kind],
        body: { success: false, message: exception.message, ...exception.details },
        headers: {},
      };
    }
    if (exception instanceof HttpException) {
      const status = exception.getStatus();
      const path = request.url.split('?')[0] ?? '/';
      if (status === HttpStatus.NOT_FOUND && this.isRouteMiss(exception)) {
        const allowed = this.routes.methodsFor(path);
        if (allowed.length > 0) return methodNotAllowed(request.method, path, allowed);
        return { status: 404, body: { success: false, message: `No route ${request.method} ${path}` }, headers: {} };
      }
      const response = exception.getResponse();
      const body: Record<string, unknown> =
        typeof response === 'string' ? { message: response } : { ...(response as Record<string, unknown>) };
      if (Array.isArray(body.message)) body.message = body.message.join('; ');
      if (typeof body.message !== 'string') body.message = exception.message;
      // Nest adds `statusCode` and `error: "Bad Request"`; the spec's bodies carry the text in `message` only.
      delete body.statusCode;
      if (typeof body.error === 'string' && !/^[A-Z_]+$/.test(body.error)) delete body.error;
      if (status === HttpStatus.UNSUPPORTED_MEDIA_TYPE) {
        body.message = `Unsupported Content-Type "${request.headers['content-type'] ?? ''}": send application/json`;
      }
      const headers: Record<string, string> = {};
      if (typeof body.retryAfter === 'number') headers['retry-after'] = String(body.retryAfter);
      return { status, body: { success: false, ...body }, headers };
    }
    if (isDiskFull(exception)) {
      // Still the spec's 500 (its table has no other status for a fault of the server), but saying
      // what happened: nothing was written (an append is one transaction), and the same request
      // succeeds once there is room.
      return {
        status: 500,
        body: {
          success: false,
          message:
            'The service cannot store anything now: the disk of its event store is full. Nothing was written; try again once there is room.',
        },
        headers: {},
      };
    }
    const fastifyError = exception as { code?: string; statusCode?: number; message?: string };
    if (typeof fastifyError?.statusCode === 'number' && fastifyError.statusCode >= 400 && fastifyError.statusCode < 500) {
      // Fastify's own client errors (body too large, bad content type) carry a readable message.
      return { status: fastifyError.statusCode, body: { success: false, message: fastifyError.message ?? 'Bad request' }, headers: {} };
    }
    const unreachable = unreachableStoreOf(exception);
    if (unreachable !== undefined) {
      // The spec's 500 again, saying which server is away: the same request succeeds once it is back
      // (the stores' clients reconnect by themselves), with no restart.
      const store = unreachable === 'event store' ? 'its event store' : 'its read store (ClickHouse)';
      return { status: 500, body: { success: false, message: `The service cannot reach ${store} now; try again shortly.` }, headers: {} };
    }
    return { status: 500, body: { success: false, message: 'Internal server error' }, headers: {} };
  }

  /** Nest's router answers an unmatched route with a NotFoundException saying "Cannot GET /x". */
  private isRouteMiss(exception: HttpException): boolean {
    return /^Cannot [A-Z]+ /.test(exception.message);
  }
}

/**
 * SQLite's `SQLITE_FULL` or the system's `ENOSPC`, on the error or on what caused it. Read by shape,
 * not `instanceof Error`: a native module's errors may come from another realm (jest's, for one).
 */
function isDiskFull(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; typeof current === 'object' && current !== null && depth < 5; depth++) {
    const { code, cause } = current as { code?: unknown; cause?: unknown };
    if (code === 'SQLITE_FULL' || code === 'ENOSPC') return true;
    current = cause;
  }
  return false;
}
