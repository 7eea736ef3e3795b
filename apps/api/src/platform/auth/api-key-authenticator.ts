import { Inject, Injectable, UnauthorizedException } from '@nestjs/common';
import type { FastifyInstance } from 'fastify';
import { AccountRepository } from '@rank/accounts/account.repository';
import { accountIdOfApiKey, hashApiKey } from '@rank/accounts/api-keys/api-key-secret';
import type { ApiKeyRecord } from '@rank/accounts/domain/account';
import { KeyUsageTracker } from '@rank/accounts/api-keys/key-usage.tracker';
import { CLOCK, Clock } from '@rank/platform/tokens';
import { routedPath } from '../http/url-encoding';
import type { AccountCaller } from './caller';

/**
 * Who an `Authorization` header names: the account and key, or a 401 that says why (missing,
 * malformed, invalid, revoked). Each call re-reads the account's stream from the cached revision, so
 * a key revoked on another replica fails on the very next request.
 */
@Injectable()
export class ApiKeyAuthenticator {
  constructor(
    private readonly accounts: AccountRepository,
    private readonly usage: KeyUsageTracker,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async authenticate(header: string | undefined): Promise<AccountCaller> {
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
    const record = keysByHash(state.apiKeys).get(hashApiKey(key));
    if (!record) throw invalid();
    if (record.revokedAt !== null) throw new UnauthorizedException({ message: 'API key has been revoked' });

    this.usage.touch(accountId, record.keyId, this.clock.now());
    return { kind: 'account', accountId, keyId: record.keyId, account: state };
  }
}

/**
 * An account's keys by the SHA-256 of the key, built once per state: states are immutable and the
 * repository hands out the same one while the account's stream is unchanged. A lookup by hash needs
 * no constant-time comparison: timing can at most tell something of a hash, never of a key.
 */
const KEY_INDEXES = new WeakMap<readonly ApiKeyRecord[], ReadonlyMap<string, ApiKeyRecord>>();

function keysByHash(keys: readonly ApiKeyRecord[]): ReadonlyMap<string, ApiKeyRecord> {
  let index = KEY_INDEXES.get(keys);
  if (!index) {
    index = new Map(keys.map((k) => [k.keyHash, k]));
    KEY_INDEXES.set(keys, index);
  }
  return index;
}

const METHODS_WITH_BODIES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Checks the key of every /api request that may carry a body before the body is read: a keyless
 * client cannot make the service read and parse megabytes. The guard authenticates every request
 * again once the body is in (the key may have been revoked while it arrived), and routes without
 * bodies, the public reads of shared projects among them, only there.
 */
export function authenticateBeforeBody(fastify: FastifyInstance, authenticator: ApiKeyAuthenticator): void {
  fastify.addHook('onRequest', async (request, reply) => {
    if (!METHODS_WITH_BODIES.has(request.method) || !routedPath(request).startsWith('/api/')) return;
    try {
      await authenticator.authenticate(request.headers.authorization);
    } catch (error) {
      if (!(error instanceof UnauthorizedException)) throw error;
      return reply.code(401).send({ success: false, ...(error.getResponse() as object) });
    }
  });
}
