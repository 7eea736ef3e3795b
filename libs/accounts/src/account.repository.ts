import { Inject, Injectable } from '@nestjs/common';
import { accountDecider, AccountCommand, AccountState } from './domain/account';
import { AccountEvent, accountStreamName } from './domain/account.events';
import { uuidFromName } from '@rank/domain/deterministic-uuid';
import { AggregateRepository } from '@rank/event-store/aggregate-repository';
import type { EventStore } from '@rank/event-store/event-store.port';
import { StateCache } from '@rank/event-store/state-cache';
import { EVENT_STORE, STATE_CACHE } from '@rank/platform/tokens';

/** Accounts live in one small stream each; this runs their commands and loads their state. */
@Injectable()
export class AccountRepository {
  private readonly repository: AggregateRepository<AccountCommand, AccountEvent, AccountState>;

  constructor(@Inject(EVENT_STORE) store: EventStore, @Inject(STATE_CACHE) cache: StateCache) {
    this.repository = new AggregateRepository(store, accountDecider, cache);
  }

  async load(accountId: string): Promise<AccountState> {
    return (await this.repository.load(accountStreamName(accountId))).state;
  }

  /** An `idempotencyKey` makes the command's events idempotent: the same key appends nothing twice. */
  async handle(
    accountId: string,
    command: AccountCommand,
    now: Date,
    options: { idempotencyKey?: string } = {},
  ): Promise<{ events: AccountEvent[]; state: AccountState }> {
    const { idempotencyKey } = options;
    return this.repository.handle(accountStreamName(accountId), command, {
      now: () => now,
      eventIds: idempotencyKey === undefined ? undefined : (events) => events.map((_, i) => uuidFromName(`${idempotencyKey}:${i}`)),
    });
  }
}
