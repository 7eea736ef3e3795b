import type { RecordedEvent } from '@rank/event-store/event-store.port';
import type { Projection, ReadModelChange } from '../projection';

/**
 * An event as a spec writes it: the stream it was appended to, and its type and data as the context
 * types them. `position` is where it sits in the log (and so the `version` of the rows it writes);
 * left out, it is the position after the previous event's, the first being 1.
 */
export interface EventInStream {
  streamName: string;
  type: string;
  /** `object`, not EventData: the contexts' event data are interfaces, which have no index signature. */
  data: object;
  position?: number;
}

/** The log the given events make: positions in order, revisions counted per stream, fixed ids and times. */
export function recordedLog(events: readonly EventInStream[]): RecordedEvent[] {
  const revisions = new Map<string, number>();
  let previousPosition = 0;
  return events.map(({ streamName, type, data, position = previousPosition + 1 }) => {
    previousPosition = position;
    const revision = revisions.get(streamName) ?? 0;
    revisions.set(streamName, revision + 1);
    return {
      id: `00000000-0000-4000-8000-${String(position).padStart(12, '0')}`,
      streamName,
      revision,
      position,
      type,
      data: data as RecordedEvent['data'],
      metadata: {},
      recordedAt: new Date(Date.UTC(2026, 0, 1) + position * 1_000),
    };
  });
}

/**
 * Given / then for projections, beside deciderSpec's given / when / then:
 *   spec.given([...events in their streams]).then([...read-model changes])
 *   spec.given([...events of streams the projection does not read]).thenNothing()
 * A projection maps each event on its own, so the changes expected are those of every given event,
 * in log order, as the runner applies them. The projection is called only through `project()`,
 * with every given event: one of a type it does not list in `eventTypes` must map to nothing.
 */
export function projectionSpec(projection: Projection) {
  return {
    given(events: readonly EventInStream[]) {
      const run = () =>
        recordedLog(events).flatMap((event) => {
          const changes = projection.project(event);
          // The runner hands a projection only the types it lists: changes for another would be lost.
          if (projection.eventTypes !== undefined && !projection.eventTypes.includes(event.type)) expect(changes).toStrictEqual([]);
          return changes;
        });
      return {
        then(expected: ReadModelChange[]) {
          const changes = run();
          expect(changes).toStrictEqual(expected);
          // A rebuild empties only the declared tables; rows written anywhere else would survive it.
          expect(changes.map((c) => c.table).filter((table) => !projection.tables.includes(table))).toEqual([]);
        },
        thenNothing() {
          expect(run()).toStrictEqual([]);
        },
        /** For assertions on the changes that are not a literal list. */
        changes: run,
      };
    },
  };
}
