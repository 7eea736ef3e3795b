import { CanActivate, ExecutionContext, ForbiddenException, Inject, Injectable, UnauthorizedException } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import type { PlanCatalogue } from '@rank/accounts/domain/plans';
import { AccountRepository } from '@rank/accounts/account.repository';
import { CLOCK, Clock, PLAN_CATALOGUE } from '@rank/platform/tokens';
import { Access, ACCESS, REFUSED_WHEN_SUSPENDED } from './access.decorators';
import { accountIdOfApiKey, hashApiKey, sameHash } from '@rank/accounts/api-keys/api-key-secret';
import { CALLER, Caller } from './caller';
import { KeyUsageTracker } from '@rank/accounts/api-keys/key-usage.tracker';

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
    private readonly accounts: AccountRepository,
    private readonly usage: KeyUsageTracker,
    @Inject(PLAN_CATALOGUE) private readonly plans: PlanCatalogue,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const access = this.reflector.getAllAndOverride<Access | undefined>(ACCESS, [context.getHandler(), context.getClass()]);
    if (access === 'public' || access === 'admin') return true;

    const request = context.switchToHttp().getRequest<FastifyRequest & Record<string, unknown>>();
    const header = request.headers.authorization;
    if (header === undefined && access === 'public-when-shared') {
      request[CALLER] = { kind: 'anonymous' } satisfies Caller;
      return true;
    }
    const caller = await this.authenticate(header);
    request[CALLER] = caller;

    const { account } = caller;
    if (account.status === 'blocked') throw new ForbiddenException({ message: 'Account blocked', blocked: true });
    if (!this.plans.find(account.plan)?.apiAccess) {
      throw new ForbiddenException({ message: 'API access requires a paid plan; upgrade to use the API', planRequired: true });
    }
    const refusedWhenSuspended = this.reflector.getAllAndOverride<boolean | undefined>(REFUSED_WHEN_SUSPENDED, [context.getHandler(), context.getClass()]);
    if (account.status === 'suspended' && refusedWhenSuspended) {
      throw new ForbiddenException({ message: 'Account suspended', suspended: true });
    }
    return true;
  }

  private async authenticate(header: string | undefined): Promise<Extract<Caller, { kind: 'account' }>> {
    if (header === undefined || header.trim() === '') {
      throw new UnauthorizedException({ message: 'Missing API key: send the header Authorization: Bearer <API_KEY>' });
    }
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (!match) throw new UnauthorizedException({ message: 'Malformed Authorization header: expected Bearer <API_KEY>' });
    const key = match[1]!;
    const accountId = accountIdOfApiKey(key);
    const invalid = () => new UnauthorizedException({ message: 'Invalid API key' });
    if (accountId === null) throw invalid();

    const state = await this.accounts.load(accountId);
    if (state.kind !== 'open') throw invalid();
    const keyHash = hashApiKey(key);
    const record = state.apiKeys.find((k) => sameHash(k.keyHash, keyHash));
    if (!record) throw invalid();
    if (record.revokedAt !== null) throw new UnauthorizedException({ message: 'API key has been revoked' });

    this.usage.touch(accountId, record.keyId, this.clock.now());
    return { kind: 'account', accountId, keyId: record.keyId, account: state };
  }
}
