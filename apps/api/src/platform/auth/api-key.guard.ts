import { CanActivate, ExecutionContext, ForbiddenException, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import type { PlanCatalogue } from '@rank/accounts/domain/plans';
import { planOfAccount } from '@rank/accounts/plan-of-account';
import { PLAN_CATALOGUE } from '@rank/platform/tokens';
import { Access, ACCESS, REFUSED_WHEN_SUSPENDED } from './access.decorators';
import { ApiKeyAuthenticator } from './api-key-authenticator';
import { CALLER, Caller } from './caller';

/**
 * Authentication and account state for every route, in the order the spec implies: a key that is
 * missing or wrong is 401; a blocked account is 403 everywhere; the Free plan is 403 planRequired;
 * a suspended account is 403 on the writes the spec lists. Each request re-checks the account's
 * stream (one indexed read), so a revoked key fails on the very next request on every replica.
 */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly authenticator: ApiKeyAuthenticator,
    @Inject(PLAN_CATALOGUE) private readonly plans: PlanCatalogue,
  ) {}

  /** Each route's decorators, read once: the metadata is fixed at start, and reading it is a cost on every request. */
  private readonly routes = new WeakMap<object, { access: Access | undefined; refusedWhenSuspended: boolean }>();

  private routeOf(context: ExecutionContext): { access: Access | undefined; refusedWhenSuspended: boolean } {
    const handler = context.getHandler();
    let route = this.routes.get(handler);
    if (!route) {
      const targets = [handler, context.getClass()];
      route = {
        access: this.reflector.getAllAndOverride<Access | undefined>(ACCESS, targets),
        refusedWhenSuspended: this.reflector.getAllAndOverride<boolean | undefined>(REFUSED_WHEN_SUSPENDED, targets) === true,
      };
      this.routes.set(handler, route);
    }
    return route;
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const { access, refusedWhenSuspended } = this.routeOf(context);
    if (access === 'public' || access === 'admin') return true;

    const request = context.switchToHttp().getRequest<FastifyRequest & Record<string, unknown>>();
    const header = request.headers.authorization;
    if (header === undefined && access === 'public-when-shared') {
      request[CALLER] = { kind: 'anonymous' } satisfies Caller;
      return true;
    }
    // Authenticated again even when the early hook did before the body: a body may take seconds to
    // arrive, and a key revoked (or an account blocked) meanwhile must not write with it.
    const caller = await this.authenticator.authenticate(header);
    request[CALLER] = caller;

    const { account } = caller;
    if (account.status === 'blocked') throw new ForbiddenException({ message: 'Account blocked', blocked: true });
    if (!planOfAccount(this.plans, account)?.apiAccess) {
      throw new ForbiddenException({ message: 'API access requires a paid plan; upgrade to use the API', planRequired: true });
    }
    if (account.status === 'suspended' && refusedWhenSuspended) {
      throw new ForbiddenException({ message: 'Account suspended', suspended: true });
    }
    return true;
  }
}
