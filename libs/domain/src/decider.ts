/**
 * The shape of every aggregate: a pure `decide` (command + state + now -> new events, or throws a
 * DomainError) and a pure `evolve` (state + event -> state), folded from `initialState`.
 */
export interface Decider<Command, Event, State> {
  decide(command: Command, state: State, now: Date): Event[];
  evolve(state: State, event: Event): State;
  initialState(): State;
}

export function foldEvents<Event, State>(decider: Pick<Decider<unknown, Event, State>, 'evolve' | 'initialState'>, events: readonly Event[]): State {
  return events.reduce(decider.evolve, decider.initialState());
}
