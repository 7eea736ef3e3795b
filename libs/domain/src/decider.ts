import type { DomainEvent } from './domain-event';

/**
 * The shape of every aggregate: a pure `decide` (command + state + now -> new events, or throws a
 * DomainError) and a pure `evolve` (state + event -> state), folded from `initialState`.
 * `eventTypes` lists every event its stream holds (see `eventTypes` in domain-event.ts), so that a
 * repository can parse what it reads back before `evolve` sees it.
 */
export interface Decider<Command, Event extends DomainEvent, State> {
  decide(command: Command, state: State, now: Date): Event[];
  evolve(state: State, event: Event): State;
  initialState(): State;
  readonly eventTypes: readonly Event['type'][];
}

export function foldEvents<Event extends DomainEvent, State>(
  decider: Pick<Decider<unknown, Event, State>, 'evolve' | 'initialState'>,
  events: readonly Event[],
): State {
  return events.reduce(decider.evolve, decider.initialState());
}
