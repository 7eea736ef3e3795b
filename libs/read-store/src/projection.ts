import type { RecordedEvent } from '@rank/event-store/event-store.port';

/** What a projection asks of the read store for one event. */
export type ReadModelChange =
  /** Upsert: tables are ReplacingMergeTree keyed so that writing the same row again changes nothing. */
  | { kind: 'insert'; table: string; row: Record<string, unknown> }
  /** Removes every row of `table` whose `column` equals `value` (a deleted project's data). */
  | { kind: 'delete'; table: string; column: string; value: string };

/**
 * A pure mapping from events to read-model changes. It must be deterministic, so that a replay of
 * the log from zero gives identical tables.
 */
export interface Projection {
  readonly name: string;
  /** The tables it writes; a rebuild empties them first. */
  readonly tables: readonly string[];
  /**
   * The event types it maps, when it maps only some: the runner then hands it only events of these
   * types (routing by type up front: a replay otherwise asks every projection about every event,
   * and most answer nothing). Left out, it is handed every event. `project()` must map nothing for
   * a type not listed; `projectionSpec` checks that for each event a spec gives.
   */
  readonly eventTypes?: readonly string[];
  /**
   * The most rows of a table written in one insert, for a table whose rows are far heavier than most
   * (arrays); the others take the runner's batch size.
   */
  readonly batchRows?: Readonly<Record<string, number>>;
  project(event: RecordedEvent): ReadModelChange[];
}
