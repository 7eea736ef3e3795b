import { randomUUID } from 'node:crypto';
import type { Decider } from '@rank/domain/decider';
import { DomainEvent, parseEvent } from '@rank/domain/domain-event';
import { EventData, EventStore, RecordedEvent, WrongExpectedRevisionError } from './event-store.port';
import { estimatedEventBytes, StateCache } from './state-cache';

export interface LoadedStream<State> {
  state: State;
  /** Revision of the last event folded into `state`; -1 when the stream is empty or absent. */
  revision: number;
}

export interface HandleOptions<Event> {
  now?: () => Date;
  /** Event ids; pass deterministic ones to make a retried delivery idempotent. Default: random UUIDs. */
  eventIds?: (events: Event[]) => string[];
  metadata?: EventData;
}

const MAX_CONFLICT_RETRIES = 20;
/** The cache a repository makes for itself when none is shared with it (tests, tools): 16 MiB. */
const OWN_CACHE_BYTES = 16 * 1024 * 1024;

/**
 * Runs commands against one kind of aggregate: load its stream, fold it, decide, append with the
 * expected revision; a concurrent writer makes the append fail, and we re-load and decide again.
 *
 * States are cached, but every load asks the store for the stream's last revision first, so a write
 * by another process or replica (a revoked API key, say) is seen on the very next load.
 */
export class AggregateRepository<Command, Event extends DomainEvent, State> {
  constructor(
    private readonly store: EventStore,
    private readonly decider: Decider<Command, Event, State>,
    private readonly cache: StateCache = new StateCache(OWN_CACHE_BYTES),
  ) {}

  async load(streamName: string): Promise<LoadedStream<State>> {
    const lastRevision = await this.store.streamRevision(streamName);
    if (lastRevision === null) {
      this.cache.delete(streamName);
      return { state: this.decider.initialState(), revision: -1 };
    }
    const cached = this.cache.get<LoadedStream<State>>(streamName);
    if (cached && cached.value.revision === lastRevision) return cached.value;

    const fromCache = cached && cached.value.revision < lastRevision;
    const base = fromCache ? cached.value : { state: this.decider.initialState(), revision: -1 };
    const newer = await this.store.readStream(streamName, { fromRevision: base.revision + 1 });
    const loaded = this.fold(base, newer);
    const bytes = (fromCache ? cached.bytes : 0) + newer.reduce((sum, event) => sum + estimatedEventBytes(event.data), 0);
    this.cache.set(streamName, loaded, bytes);
    return loaded;
  }

  /** Decides and appends; returns the new events (none when the command changes nothing). */
  async handle(
    streamName: string,
    command: Command,
    options: HandleOptions<Event> = {},
  ): Promise<{ events: Event[]; state: State; revision: number }> {
    const now = options.now ?? (() => new Date());
    for (let attempt = 0; ; attempt++) {
      const current = await this.load(streamName);
      const events = this.decider.decide(command, current.state, now());
      if (events.length === 0) return { events, ...current };
      const ids = options.eventIds?.(events) ?? events.map(() => randomUUID());
      try {
        const result = await this.store.appendToStream(
          streamName,
          events.map((e, i) => ({ id: ids[i]!, type: e.type, data: e.data as EventData, metadata: options.metadata })),
          { expectedRevision: current.revision === -1 ? 'no_stream' : current.revision },
        );
        const state = events.reduce(this.decider.evolve, current.state);
        const revision = result.nextExpectedRevision;
        if (revision === current.revision + events.length) {
          const before = this.cache.get<LoadedStream<State>>(streamName);
          const bytes =
            (before?.value.revision === current.revision ? before.bytes : 0) +
            events.reduce((sum, e) => sum + estimatedEventBytes(e.data), 0);
          this.cache.set(streamName, { state, revision }, bytes);
        }
        return { events, state, revision };
      } catch (error) {
        if (!(error instanceof WrongExpectedRevisionError) || attempt >= MAX_CONFLICT_RETRIES) throw error;
      }
    }
  }

  /** Forget a stream's cached state (after deleting it). */
  forget(streamName: string): void {
    this.cache.delete(streamName);
  }

  private fold(base: LoadedStream<State>, recorded: RecordedEvent[]): LoadedStream<State> {
    let { state, revision } = base;
    for (const stored of recorded) {
      const event = parseEvent<Event>(stored, this.decider.eventTypes);
      // A stream holds only its decider's events: another type means the stream is not what its name says.
      if (!event) throw new Error(`stream ${stored.streamName} holds an event of type ${stored.type}, which its decider does not know`);
      state = this.decider.evolve(state, event);
      revision = stored.revision;
    }
    return { state, revision };
  }
}
