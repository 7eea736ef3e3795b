import { CanActivate, ExecutionContext, Inject, Injectable, NotFoundException, UnauthorizedException } from '@nestjs/common';
import { timingSafeEqual, createHash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { AppConfig } from '@rank/platform/config/app-config';
import { APP_CONFIG } from '@rank/platform/tokens';

/**
 * The operator API exists only when ADMIN_TOKEN is set; otherwise the whole /admin tree is 404, as
 * if it were not there. Tokens are compared as hashes in constant time.
 */
@Injectable()
export class AdminTokenGuard implements CanActivate {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const token = this.config.adminToken;
    if (token === undefined) throw new NotFoundException({ message: `No route ${request.method} ${request.url.split('?')[0]}` });
    const match = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '');
    const digest = (s: string) => createHash('sha256').update(s).digest();
    if (!match || !timingSafeEqual(digest(match[1]!), digest(token))) {
      throw new UnauthorizedException({ message: 'Missing or wrong operator token: send Authorization: Bearer <ADMIN_TOKEN>' });
    }
    return true;
  }
}
