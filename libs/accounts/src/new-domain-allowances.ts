import { HttpException, HttpStatus, Inject, Injectable } from '@nestjs/common';
import { LIMITS } from '@rank/domain/limits';
import { STREAM_CATEGORIES } from '@rank/domain/stream-categories';
import { AggregateRepository } from '@rank/event-store/aggregate-repository';
import type { EventStore } from '@rank/event-store/event-store.port';
import { StateCache } from '@rank/event-store/state-cache';
import { EVENT_STORE, STATE_CACHE } from '@rank/platform/tokens';
import {
  allowanceUsage,
  CountNewDomains,
  NewDomainAllowanceEvent,
  NewDomainAllowanceExhausted,
  newDomainAllowanceDecider,
  NewDomainAllowanceState,
} from './domain/new-domain-allowance';

/**
 * Each account's new-domain allowance, kept in the event store (stream `new-domains-<accountId>`)
 * so that it holds across API replicas and restarts. The domain endpoints (traffic, page speed,
 * CrUX, competitors) count through `count` before they fetch or read; capacity reads `usage`.
 */
@Injectable()
export class NewDomainAllowances {
  private readonly repository: AggregateRepository<CountNewDomains, NewDomainAllowanceEvent, NewDomainAllowanceState>;

  constructor(@Inject(EVENT_STORE) store: EventStore, @Inject(STATE_CACHE) cache: StateCache) {
    this.repository = new AggregateRepository(store, newDomainAllowanceDecider, cache);
  }

  /**
   * Counts the domains (each once per window); when they do not all fit, counts none and throws the
   * spec's 429 `{success: false, message, retryAfter}` (the error filter adds `Retry-After`).
   */
  async count(accountId: string, domains: readonly string[], now: Date): Promise<void> {
    if (domains.length === 0) return;
    try {
      await this.repository.handle(
        STREAM_CATEGORIES['new-domains'](accountId),
        { type: 'CountNewDomains', domains, limit: LIMITS.rateLimits.newDomainsPerDay.limit },
        { now: () => now },
      );
    } catch (error) {
      if (!(error instanceof NewDomainAllowanceExhausted)) throw error;
      throw new HttpException(
        { success: false, message: error.message, retryAfter: error.retryAfterSeconds },
        HttpStatus.TOO_MANY_REQUESTS,
      );
    }
  }

  async usage(accountId: string, now: Date) {
    const { state } = await this.repository.load(STREAM_CATEGORIES['new-domains'](accountId));
    return allowanceUsage(state, LIMITS.rateLimits.newDomainsPerDay.limit, now.getTime());
  }
}
