import { Inject, Injectable } from '@nestjs/common';
import {
  drawOutcome,
  MonthlyTokensCommand,
  monthlyTokensDecider,
  MonthlyTokensEvent,
  MonthlyTokensState,
  monthlyTokensStreamName,
  SlotTokens,
} from '../domain/monthly-tokens';
import { AggregateRepository } from '@rank/event-store/aggregate-repository';
import type { EventStore } from '@rank/event-store/event-store.port';
import { StateCache } from '@rank/event-store/state-cache';
import { EVENT_STORE, STATE_CACHE } from '@rank/platform/tokens';

/** Each account's monthly token ledger (stream `tokens-<accountId>-<YYYY-MM>`). */
@Injectable()
export class MonthlyTokensRepository {
  private readonly repository: AggregateRepository<MonthlyTokensCommand, MonthlyTokensEvent, MonthlyTokensState>;

  constructor(@Inject(EVENT_STORE) store: EventStore, @Inject(STATE_CACHE) cache: StateCache) {
    this.repository = new AggregateRepository(store, monthlyTokensDecider, cache);
  }

  /**
   * Draws a slot's tokens, or gets back the decision already taken for it (by this replica before a
   * crash, or by a racing one: the append carries the expected revision, so only one decides).
   * A slot that costs nothing touches no stream.
   */
  async draw(command: MonthlyTokensCommand, now: Date): Promise<SlotTokens> {
    if (command.keywordCount === 0) return { kind: 'drawn', amount: 0 };
    const { state } = await this.repository.handle(monthlyTokensStreamName(command.accountId, command.month), command, { now: () => now });
    return drawOutcome(command, state);
  }
}
