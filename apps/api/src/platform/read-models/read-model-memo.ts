import type { EventStore, RecordedEvent } from '@rank/event-store/event-store.port';
import { StateCache } from '@rank/event-store/state-cache';
import { ALL_PROJECTIONS } from '@rank/projector/all-projections';
import { projectedPosition } from '@rank/projector/projected-position';
import type { Projection, ReadModelChange } from '@rank/read-store/projection';
import type { ReadStore } from '@rank/read-store/read-store.port';

/** What a memo keeps its values by, and how it knows one still holds. */
export interface MemoSpec<T, I extends object = object> {
  /** The read-model tables a value is read from. */
  tables: readonly string[];
  /** Whether a change to one of those tables may alter the value kept under `key`; without it, any change does. */
  affects?(change: ReadModelChange, key: string): boolean;
  /** Roughly the bytes a value and what it was read for (which the memo keeps too) hold, for the memo's bound. */
  bytesOf(value: T, inputs: I): number;
  /** The bound: the least recently used values go first beyond it. */
  maxBytes: number;
}

/** A value and how far the read models had got when it was read. */
interface Held<T, I> {
  value: T;
  /** What the value was read for (compared by identity): a value read for other inputs is read again. */
  inputs: I;
  /** A projected position up to which the value is known current: read before it was, and raised when the events projected since are found to touch none of its rows. */
  projectedUpTo: number;
}

/** A read under way; `queried` once its ClickHouse queries have been sent. */
interface Reading<T, I> {
  inputs: I;
  queried: boolean;
  held: Promise<Held<T, I>>;
}

/**
 * What keeping any value costs besides its own bytes: the record around it, its key, the map entry.
 * Without it, values that weigh nothing by their own estimate (an empty map) were never evicted.
 */
const HELD_BYTES = 256;

/** Beyond this many events projected since, reading again is cheaper than looking at each. */
const MAX_EVENTS_LOOKED_AT = 1_000;

/**
 * Values read from the read models (ClickHouse), kept per key and handed out as the same object
 * while they still hold, so that a caller can also keep what it built from them. Read models change
 * only when events are projected, in any process (api replicas and a separate projector share only
 * the stores), so a value holds:
 * - while the log's last position is not past the projected position read with it (one cheap
 *   event-store read, the common case);
 * - otherwise, while the stored checkpoint says the projector has not moved since, or while the
 *   events it projected since write none of the value's rows (found by running the projections
 *   that write its tables on them).
 */
export class ReadModelMemo<T, I extends object = object> {
  private readonly held: StateCache;
  /** Reads under way, per key: concurrent first requests share one read. */
  private readonly reading = new Map<string, Reading<T, I>>();
  private readonly projections: readonly Projection[];
  private readonly tables: ReadonlySet<string>;

  constructor(
    private readonly eventStore: EventStore,
    private readonly readStore: ReadStore,
    private readonly spec: MemoSpec<T, I>,
  ) {
    this.held = new StateCache(spec.maxBytes);
    this.tables = new Set(spec.tables);
    this.projections = ALL_PROJECTIONS.filter((p) => p.tables.some((t) => this.tables.has(t)));
  }

  /** How many values are kept now. */
  get size(): number {
    return this.held.size;
  }

  /**
   * The value for `key` and `inputs`: the one kept while it holds, else `read()`'s. `logEnd`, the
   * log's last position read by the caller during this request, spares the read here: a caller that
   * asks several memos reads it once (on EventStoreDB it is a round trip).
   */
  async get(key: string, inputs: I, read: () => Promise<T>, logEnd?: number): Promise<T> {
    const known = this.held.get<Held<T, I>>(key)?.value;
    let projectedNow: number | undefined;
    if (known && known.inputs === inputs) {
      if ((logEnd ?? (await this.eventStore.lastPosition())) <= known.projectedUpTo) return known.value;
      projectedNow = await projectedPosition(this.readStore);
      if (projectedNow <= known.projectedUpTo) return known.value;
      if (await this.untouchedBetween(key, known.projectedUpTo, projectedNow)) {
        known.projectedUpTo = Math.max(known.projectedUpTo, projectedNow);
        return known.value;
      }
    }
    // A read under way serves this request too while its queries have not started: they then see
    // at least what this request's own would.
    const pending = this.reading.get(key);
    if (pending && pending.inputs === inputs && !pending.queried) return (await pending.held).value;
    const entry = { inputs, queried: false } as Reading<T, I>;
    entry.held = this.readNow(inputs, read, projectedNow, entry);
    this.reading.set(key, entry);
    try {
      const held = await entry.held;
      this.held.set(key, held, HELD_BYTES + this.spec.bytesOf(held.value, inputs));
      return held.value;
    } finally {
      if (this.reading.get(key) === entry) this.reading.delete(key);
    }
  }

  private async readNow(inputs: I, read: () => Promise<T>, projectedNow: number | undefined, entry: Reading<T, I>): Promise<Held<T, I>> {
    // Read before the value: whatever its queries see includes at least everything up to it.
    const projectedUpTo = projectedNow ?? (await projectedPosition(this.readStore));
    entry.queried = true;
    return { value: await read(), inputs, projectedUpTo };
  }

  /** Whether the events after `from` up to `to` (projected positions) leave the value kept under `key` unchanged. */
  private async untouchedBetween(key: string, from: number, to: number): Promise<boolean> {
    let after = from;
    for (let looked = 0; looked < MAX_EVENTS_LOOKED_AT;) {
      const events = await this.eventStore.readAll({ afterPosition: after, maxCount: 100 });
      if (events.length === 0) return true;
      for (const event of events) {
        if (event.position > to) return true;
        if (this.touches(event, key)) return false;
        after = event.position;
      }
      looked += events.length;
    }
    return false;
  }

  /** Whether projecting the event writes or deletes rows the value under `key` is read from. */
  private touches(event: RecordedEvent, key: string): boolean {
    try {
      return this.projections.some((projection) =>
        projection.project(event).some((change) => this.tables.has(change.table) && (this.spec.affects?.(change, key) ?? true)),
      );
    } catch {
      // An event a projection cannot map is set aside by the projector; reading again costs only time.
      return true;
    }
  }
}
