import {
  CanActivate,
  ExecutionContext,
  HttpException,
  HttpStatus,
  Inject,
  Injectable,
  NotFoundException,
  UnauthorizedException,
} from '@nestjs/common';
import { timingSafeEqual, createHash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { AppConfig } from '@rank/platform/config/app-config';
import { APP_CONFIG } from '@rank/platform/tokens';
import { Metrics } from '@rank/platform/metrics/metrics';
import { FailedAttempts } from './failed-attempts';

/**
 * The operator API exists only when ADMIN_TOKEN is set; otherwise the whole /admin tree is 404, as
 * if it were not there. Tokens are compared as hashes in constant time, and an address that sends
 * too many wrong ones is refused with 429 for the rest of the minute.
 */
@Injectable()
export class AdminTokenGuard implements CanActivate {
  private readonly failures = new FailedAttempts();

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly metrics: Metrics,
  ) {}

  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const token = this.config.adminToken;
    if (token === undefined) throw new NotFoundException({ message: `No route ${request.method} ${request.url.split('?')[0]}` });
    const retryAfter = this.failures.retryAfterSeconds(request.ip);
    if (retryAfter > 0) {
      this.metrics.rateLimitRefusals.inc({ limiter: 'admin-token' });
      throw new HttpException(
        { message: 'Too many wrong operator tokens from this address; try again later', retryAfter },
        HttpStatus.TOO_MANY_REQUESTS,
      );
    }
    const match = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '');
    const digest = (s: string) => createHash('sha256').update(s).digest();
    if (!match || !timingSafeEqual(digest(match[1]!), digest(token))) {
      this.failures.fail(request.ip);
      throw new UnauthorizedException({ message: 'Missing or wrong operator token: send Authorization: Bearer <ADMIN_TOKEN>' });
    }
    return true;
  }
}
