import { HttpException, HttpStatus, Inject, Injectable, UnauthorizedException } from '@nestjs/common';
import { timingSafeEqual, createHash } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppConfig } from '@rank/platform/config/app-config';
import { APP_CONFIG } from '@rank/platform/tokens';
import { Metrics } from '@rank/platform/metrics/metrics';
import { routedPath } from '../../platform/http/url-encoding';
import { FailedAttempts } from './failed-attempts';

/** Whether a routed path is in the operator API's tree. */
export const isOperatorPath = (path: string) => path === '/admin' || path.startsWith('/admin/');

/**
 * The operator token check. The operator API is composed only when ADMIN_TOKEN is set (app.module.ts);
 * tokens are compared as hashes in constant time, and an address that sends too many wrong ones is
 * refused with 429 for the rest of the minute. One instance, shared by the route guard and the check
 * before the body, so both count the same failures.
 */
@Injectable()
export class OperatorToken {
  private readonly failures = new FailedAttempts();
  private readonly tokenDigest: Buffer;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly metrics: Metrics,
  ) {
    if (config.adminToken === undefined) throw new Error('the operator API is composed only when ADMIN_TOKEN is set');
    this.tokenDigest = digest(config.adminToken);
  }

  /** Throws the refusal (429, 401) of a request without the operator token. */
  check(request: FastifyRequest): void {
    const retryAfter = this.failures.retryAfterSeconds(request.ip);
    if (retryAfter > 0) {
      this.metrics.rateLimitRefusals.inc({ limiter: 'admin-token' });
      throw new HttpException(
        { message: 'Too many wrong operator tokens from this address; try again later', retryAfter },
        HttpStatus.TOO_MANY_REQUESTS,
      );
    }
    const match = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '');
    if (!match || !timingSafeEqual(digest(match[1]!), this.tokenDigest)) {
      this.failures.fail(request.ip);
      throw new UnauthorizedException({ message: 'Missing or wrong operator token: send Authorization: Bearer <ADMIN_TOKEN>' });
    }
  }
}

const digest = (text: string) => createHash('sha256').update(text).digest();

/**
 * Checks the operator token of every /admin request that may carry a body before the body is read,
 * as the API's keys are (authenticateBeforeBody): a client without the token cannot make the service
 * read and parse megabytes, and a body that does not parse is no way around the failure count.
 */
export function checkOperatorTokenBeforeBody(fastify: FastifyInstance, operatorToken: OperatorToken): void {
  fastify.addHook('onRequest', (request, reply, done) => {
    if (request.method === 'GET' || request.method === 'HEAD' || !isOperatorPath(routedPath(request))) return done();
    try {
      operatorToken.check(request);
    } catch (error) {
      if (!(error instanceof HttpException)) return done(error as Error);
      const body = error.getResponse() as Record<string, unknown>;
      if (typeof body.retryAfter === 'number') void reply.header('retry-after', String(body.retryAfter));
      void reply.code(error.getStatus()).send({ success: false, ...body });
      return;
    }
    done();
  });
}
