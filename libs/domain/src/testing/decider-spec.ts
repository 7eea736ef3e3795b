import { DomainError } from '../domain-error';
import { Decider, foldEvents } from '../decider';
import type { DomainEvent } from '../domain-event';

/**
 * Given / when / then for deciders (the emmett habit):
 *   spec.given([...past events]).when(command).then([...new events])
 *   spec.given([...]).when(command).thenThrows('not-found', /API key/)
 */
export function deciderSpec<C, E extends DomainEvent, S>(decider: Decider<C, E, S>, now: Date = new Date('2026-01-01T00:00:00.000Z')) {
  return {
    given(past: E[]) {
      return {
        when(command: C) {
          const run = () => decider.decide(command, foldEvents(decider, past), now);
          return {
            then(expected: E[]) {
              expect(run()).toEqual(expected);
            },
            thenThrows(kind: DomainError['kind'], message?: RegExp | string) {
              let caught: unknown;
              try {
                run();
              } catch (error) {
                caught = error;
              }
              expect(caught).toBeInstanceOf(DomainError);
              expect((caught as DomainError).kind).toBe(kind);
              if (message !== undefined) expect((caught as DomainError).message).toMatch(message);
              return caught as DomainError;
            },
            /** For assertions on the events that are not a literal list (e.g. generated values). */
            events: run,
          };
        },
      };
    },
  };
}
