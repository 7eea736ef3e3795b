import { Inject, Injectable } from '@nestjs/common';
import { AggregateRepository } from '@rank/event-store/aggregate-repository';
import type { EventStore } from '@rank/event-store/event-store.port';
import { StateCache } from '@rank/event-store/state-cache';
import { EVENT_STORE, STATE_CACHE } from '@rank/platform/tokens';
import { DomainDataCommand, domainDataDecider, DomainDataState } from './domain/domain-data';
import { DomainDataEvent, domainStreamName } from './domain/domain-data.events';

/** One external domain's fetched data (stream `domain-<domain>`, the domain normalised). */
@Injectable()
export class DomainDataRepository {
  private readonly repository: AggregateRepository<DomainDataCommand, DomainDataEvent, DomainDataState>;

  constructor(@Inject(EVENT_STORE) store: EventStore, @Inject(STATE_CACHE) cache: StateCache) {
    this.repository = new AggregateRepository(store, domainDataDecider, cache);
  }

  async load(domain: string): Promise<DomainDataState> {
    return (await this.repository.load(domainStreamName(domain))).state;
  }

  async record(command: DomainDataCommand, now: Date): Promise<void> {
    await this.repository.handle(domainStreamName(command.domain), command, { now: () => now });
  }
}
