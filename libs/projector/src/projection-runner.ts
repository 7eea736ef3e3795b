import type { EventStore, RecordedEvent, Subscription } from '@rank/event-store/event-store.port';
import { BatchedWriter, RefusedRow } from '@rank/read-store/batched-writer';
import type { Projection, ReadModelChange } from '@rank/read-store/projection';
import type { ReadStore } from '@rank/read-store/read-store.port';
import { isPermanentWriteError } from '@rank/read-store/write-errors';
import { StartRefusal } from '@rank/platform/start-refusal';
import { projectedCheckpoint, READ_MODELS_CHECKPOINT } from './projected-position';

export interface ProjectionRunnerOptions {
  /** Checkpoint name: one runner, one position in the log. */
  name?: string;
  /** Flush and checkpoint after this many events, whatever the time. */
  maxEventsPerCheckpoint?: number;
  /**
   * Flush and checkpoint after this many rows, whatever the events. The next checkpoint waits for
   * this one, so the rows held while ClickHouse writes stay near twice this many.
   */
  maxRowsPerCheckpoint?: number;
  /** Flush and checkpoint this long after the first unflushed event. */
  checkpointIntervalMs?: number;
  /** The first pause before retrying a failed write or re-subscribing; it doubles up to maxRetryDelayMs. */
  retryDelayMs?: number;
  maxRetryDelayMs?: number;
  /** How often the lag is looked at, and the lag (events or seconds behind the log) that is worth a warning. */
  lagCheckIntervalMs?: number;
  lagWarning?: { events: number; seconds: number };
  log?: (message: string) => void;
}

/** How far the read models are behind the log. */
export interface ProjectionLag {
  /** Events in the log after the checkpoint (counted up to 100,000). */
  events: number;
  /** Age of the oldest event not yet written; 0 when caught up. */
  seconds: number;
}

const LAG_COUNT_LIMIT = 100_000;

/** What a buffered row keeps of the event that gave it: what a dead letter records, should its row be refused. */
type RowSource = Pick<RecordedEvent, 'id' | 'streamName' | 'type' | 'position'>;

/**
 * Not the event itself: the writer holds each row's source until the row is written (in a replay,
 * up to two checkpoints of rows), and the event would keep its parsed data, metadata and date alive
 * that long too, for the garbage collector to copy and promote, where these four fields are small.
 */
const sourceOf = (event: RecordedEvent): RowSource => ({
  id: event.id,
  streamName: event.streamName,
  type: event.type,
  position: event.position,
});
const NO_CHANGES: ReadModelChange[] = [];

/**
 * Which projections each event type goes to: those that list the type in `eventTypes`, and those
 * that list none (handed every event), in the order given, so an event's changes keep their order.
 * A replay thus asks only the projections an event is for, instead of every projection (each
 * parsing the type, and some the stream name) for every event.
 */
function routesByType(projections: readonly Projection[]): {
  routes: Map<string, readonly Projection[]>;
  forOtherTypes: readonly Projection[];
} {
  const routes = new Map<string, readonly Projection[]>();
  for (const type of new Set(projections.flatMap((p) => p.eventTypes ?? []))) {
    routes.set(
      type,
      projections.filter((p) => p.eventTypes?.includes(type) ?? true),
    );
  }
  return { routes, forOtherTypes: projections.filter((p) => p.eventTypes === undefined) };
}

/** The read models hold events the log does not: they must be rebuilt from this log before projecting on. */
export class ReadModelsAheadOfLogError extends StartRefusal {
  constructor(name: string, checkpoint: number, logEnd: number) {
    super(
      `The read models (${name}) are written up to position ${checkpoint} of the event log, but the log ends at ${logEnd}: ` +
        'it was replaced by an older copy (a restored backup?) or by another log. Rebuild them from this log with ' +
        '`npm run projections:rebuild` (the service stopped), then start again.',
    );
    this.name = 'ReadModelsAheadOfLogError';
  }
}

/** The read models were written from another log: the event at their checkpoint is not the one they saw there. */
export class ReadModelsOfAnotherLogError extends StartRefusal {
  constructor(name: string, checkpoint: number, seenId: string, foundId: string) {
    super(
      `The read models (${name}) are written up to position ${checkpoint} of the event log, where they saw event ${seenId}, ` +
        `but this log holds event ${foundId} there: it was replaced by another copy (a restored backup that has grown since?). ` +
        'Rebuild them from this log with `npm run projections:rebuild` (the service stopped), then start again.',
    );
    this.name = 'ReadModelsOfAnotherLogError';
  }
}

/**
 * Follows the whole event log from the stored checkpoint and applies the projections' changes to
 * ClickHouse in batches. The checkpoint is saved only after the rows it covers are written, so a
 * crash replays a little and never skips; the tables are keyed so that replaying is harmless.
 *
 * One event never stalls the others: an event whose rows ClickHouse refuses for good (a lone
 * surrogate written by an old version, say), or that a projection cannot map, is recorded in
 * `projection_dead_letters` with the reason, and the runner moves on. Failures that may pass (the
 * store unreachable, a timeout) are retried in place with a doubling pause, holding the log where it
 * is: nothing is read twice and nothing is skipped.
 */
export class ProjectionRunner {
  /** Checkpoint name, and the projection's name in metrics and readiness. */
  readonly name: string;
  private readonly writer: BatchedWriter;
  private subscription: Subscription | undefined;
  private running = false;
  /** Position of the last event whose changes are queued (not necessarily written). */
  private queuedPosition = 0;
  /** That event's id, and the position of the event before it: what a checkpoint records of it. */
  private queuedEvent = { id: '', previousPosition: 0 };
  /** Position the stored checkpoint has reached: everything up to it is written. */
  private checkpointPosition = 0;
  private eventsSinceCheckpoint = 0;
  private rowsSinceCheckpoint = 0;
  /** Events handled since start (for progress reports). */
  eventsHandled = 0;
  /** Events recorded as dead letters since start (a metric). */
  deadLetters = 0;
  /** Subscriptions opened since start: one, unless reading the log failed. */
  subscriptions = 0;
  private readonly deadLettered = new Set<string>();
  private timer: NodeJS.Timeout | undefined;
  private checkpointing: Promise<void> = Promise.resolve();
  private checkpointInFlight: Promise<void> | undefined;
  private restartTimer: NodeJS.Timeout | undefined;
  private lagTimer: NodeJS.Timeout | undefined;
  private lagWarned = false;
  private subscribeFailures = 0;
  private readonly wakers = new Set<() => void>();
  private readonly log: (message: string) => void;
  /** The projections each event type is handed to, in the order given (see `routesByType`). */
  private readonly routes: ReadonlyMap<string, readonly Projection[]>;
  /** Those handed an event of a type no projection lists: the ones that list none. */
  private readonly forOtherTypes: readonly Projection[];

  constructor(
    private readonly store: EventStore,
    private readonly readStore: ReadStore,
    projections: readonly Projection[],
    private readonly options: ProjectionRunnerOptions = {},
  ) {
    this.name = options.name ?? READ_MODELS_CHECKPOINT;
    this.log = options.log ?? ((m) => console.warn(m));
    ({ routes: this.routes, forOtherTypes: this.forOtherTypes } = routesByType(projections));
    this.writer = new BatchedWriter(readStore, {
      // Only a catch-up fills a batch (live events are written by the timers below long before): in a
      // replay ClickHouse spends about a third less CPU on 100,000-row inserts than on 20,000-row ones
      // (fewer parts to write and merge).
      maxBatchRows: 100_000,
      maxBatchRowsByTable: Object.assign({}, ...projections.map((projection) => projection.batchRows ?? {})),
      flushIntervalMs: 1_000,
      maxRetryDelayMs: this.maxRetryDelayMs,
      onRefusedRow: (refused) => this.refused(refused),
      onFlushError: (error, failure) =>
        this.log(
          `projection ${this.name}: writing ${failure.table} failed, ${failure.bufferedRows} rows kept for retry: ${describe(error)}`,
        ),
    });
  }

  /** Position up to which every read model is written. */
  get position(): number {
    return this.checkpointPosition;
  }

  private get retryDelayMs(): number {
    return this.options.retryDelayMs ?? 1_000;
  }

  private get maxRetryDelayMs(): number {
    return this.options.maxRetryDelayMs ?? 60_000;
  }

  /**
   * Starts following the log from the read models' checkpoint. Refuses (`ReadModelsAheadOfLogError`)
   * when that checkpoint is past the log's end: the log was replaced by an older copy, and the events
   * appended next would get positions the read models count as written, and never be projected.
   */
  async start(): Promise<void> {
    const checkpoint = await projectedCheckpoint(this.readStore, this.name);
    this.checkpointPosition = checkpoint.position;
    const logEnd = await this.store.lastPosition();
    if (this.checkpointPosition > logEnd) throw new ReadModelsAheadOfLogError(this.name, this.checkpointPosition, logEnd);
    if (checkpoint.eventId !== '') {
      // Read after the event before, a position either store can start from. Not found there (its
      // stream deleted since): nothing to compare.
      const [there] = await this.store.readAll({ afterPosition: checkpoint.previousPosition, maxCount: 1 });
      if (there && there.position === checkpoint.position && there.id !== checkpoint.eventId)
        throw new ReadModelsOfAnotherLogError(this.name, checkpoint.position, checkpoint.eventId, there.id);
    }
    this.running = true;
    this.queuedPosition = this.checkpointPosition;
    this.subscribe();
    this.watchLag();
  }

  /** Stops reading, writes what it can, and never throws: what is not written is read again at the next start. */
  async stop(): Promise<void> {
    this.running = false;
    clearTimeout(this.restartTimer);
    clearTimeout(this.lagTimer);
    for (const wake of [...this.wakers]) wake();
    await this.subscription?.stop();
    this.subscription = undefined;
    try {
      await this.checkpoint();
      await this.writer.close();
    } catch (error) {
      this.log(
        `projection ${this.name}: stopping with unwritten rows; they are projected again from position ${this.checkpointPosition} at the next start: ${describe(error)}`,
      );
    }
  }

  /** Resolves once every event in the log when called has been written to the read models. */
  async waitUntilCaughtUp(timeoutMs = 30_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    // The log's end in one read (not a walk through the log: at a rebuild that is the whole log). It
    // may be a system record's position, which no event reaches: done when no event up to it is left.
    const newest = await this.store.lastPosition();
    while (this.checkpointPosition < newest) {
      const [next] = await this.store.readAll({ afterPosition: this.checkpointPosition, maxCount: 1 });
      if (next === undefined || next.position > newest) return;
      if (Date.now() > deadline) throw new Error(`projections stuck at ${this.checkpointPosition}, log at ${newest}`);
      // Written once every event up to the end is queued. Before that the catch-up writes and
      // checkpoints as it goes, in inserts of its own size: a checkpoint forced every 10 ms cut a
      // replay's inserts into a dozen small ones (from 1,000 rows), which cost ClickHouse more.
      const [unqueued] = await this.store.readAll({ afterPosition: this.queuedPosition, maxCount: 1 });
      if (unqueued === undefined || unqueued.position > newest) await this.checkpoint().catch(() => undefined);
      await new Promise((r) => setTimeout(r, 10));
    }
  }

  /** How far behind the log the written read models are, counting at most `countLimit` events. */
  async lag(now = new Date(), countLimit = LAG_COUNT_LIMIT): Promise<ProjectionLag> {
    const first = await this.store.readAll({ afterPosition: this.checkpointPosition, maxCount: 1 });
    if (first.length === 0) return { events: 0, seconds: 0 };
    let events = 0;
    for (let after = this.checkpointPosition; events < countLimit;) {
      const page = await this.store.readAll({ afterPosition: after, maxCount: Math.min(5_000, countLimit - events) });
      if (page.length === 0) break;
      events += page.length;
      after = page[page.length - 1]!.position;
    }
    return { events, seconds: Math.max(0, (now.getTime() - first[0]!.recordedAt.getTime()) / 1000) };
  }

  private subscribe(): void {
    this.subscriptions++;
    this.subscription = this.store.subscribeToAll({
      afterPosition: this.queuedPosition,
      onEvent: (event) => {
        const handling = this.handle(event);
        if (handling === undefined) {
          this.subscribeFailures = 0;
          return;
        }
        return handling.then(() => {
          this.subscribeFailures = 0;
        });
      },
      onError: (error) => {
        // Reading the log failed (the event store is down, say): writes are retried in place by
        // handle(), so this is only about the subscription. Re-subscribe after a doubling pause,
        // from what is queued: queued rows stay in the writer and are not read twice.
        this.subscription = undefined;
        if (!this.running) return;
        const delay = Math.min(this.retryDelayMs * 2 ** this.subscribeFailures++, this.maxRetryDelayMs);
        this.log(`projection ${this.name}: reading the log failed at ${this.queuedPosition}, again in ${delay} ms: ${describe(error)}`);
        this.restartTimer = setTimeout(() => this.running && this.subscribe(), delay);
      },
    });
  }

  /**
   * Queues an event's changes. Nearly every event of a replay only adds rows to the writer: that is
   * done at once and returns nothing, so the subscription goes on to the next event without a promise
   * and a turn of the microtask queue per event (three promises an event when this was async). A
   * promise only when the event has to wait: a delete, a dead letter, a checkpoint to start.
   */
  private handle(event: RecordedEvent): Promise<void> | undefined {
    let changes: ReadModelChange[];
    try {
      changes = NO_CHANGES;
      for (const projection of this.routes.get(event.type) ?? this.forOtherTypes) {
        const more = projection.project(event);
        if (more.length > 0) changes = changes.length === 0 ? more : changes.concat(more);
      }
    } catch (error) {
      // A projection that throws on an event would throw on it at every replay.
      return this.retrying(() => this.deadLetter(event, error)).then(() => this.queued(event));
    }
    const source = sourceOf(event);
    for (let i = 0; i < changes.length; i++) {
      const change = changes[i]!;
      if (change.kind !== 'insert') return this.applyFrom(event, changes, i);
      this.writer.add(change.table, change.row, source);
      this.rowsSinceCheckpoint++;
    }
    return this.queued(event);
  }

  /** The rest of an event's changes from the first delete on, which waits for the writes before it. */
  private async applyFrom(event: RecordedEvent, changes: readonly ReadModelChange[], from: number): Promise<void> {
    const source = sourceOf(event);
    for (const change of changes.slice(from)) {
      if (change.kind === 'insert') {
        this.writer.add(change.table, change.row, source);
        this.rowsSinceCheckpoint++;
      } else {
        // Rows queued before the delete must land before it, or they would survive it.
        await this.retrying(() => this.writer.flush());
        await this.retrying(async () => {
          try {
            await this.readStore.command(`DELETE FROM ${change.table} WHERE ${change.column} = {value:String}`, { value: change.value });
          } catch (error) {
            if (!isPermanentWriteError(error)) throw error;
            await this.deadLetter(event, error);
          }
        });
      }
    }
    await this.queued(event);
  }

  /** Counts an event whose changes are queued; a promise only when a checkpoint has to start. */
  private queued(event: RecordedEvent): Promise<void> | undefined {
    this.queuedEvent = { id: event.id, previousPosition: this.queuedPosition };
    this.queuedPosition = event.position;
    this.eventsSinceCheckpoint++;
    this.eventsHandled++;
    // A catch-up checkpoints every 20,000 events or 200,000 rows (live events, by the timer): a crash
    // replays at most that many, harmlessly, the flushes make inserts of a useful size, and the
    // projection runs at most one checkpoint ahead of ClickHouse (about 4,000 checks of 50 results).
    if (
      this.eventsSinceCheckpoint >= (this.options.maxEventsPerCheckpoint ?? 20_000) ||
      this.rowsSinceCheckpoint >= (this.options.maxRowsPerCheckpoint ?? 200_000)
    ) {
      this.eventsSinceCheckpoint = 0;
      this.rowsSinceCheckpoint = 0;
      return this.checkpointWhileProjecting();
    }
    if (!this.timer) this.scheduleCheckpoint(this.options.checkpointIntervalMs ?? 200, 0);
    return undefined;
  }

  /**
   * Starts a checkpoint and goes on projecting while ClickHouse writes its rows (on its own threads:
   * the replay's two halves overlap). At most one such checkpoint is in flight: the next one waits
   * for it, and if it failed, retries it in place, holding the log, before anything else is queued.
   */
  private async checkpointWhileProjecting(): Promise<void> {
    const previous = this.checkpointInFlight;
    if (previous) {
      try {
        await previous;
      } catch {
        await this.retrying(() => this.checkpoint());
      }
    }
    const started = this.checkpoint();
    // Awaited by the next call; stop() and waitUntilCaughtUp() checkpoint again behind it.
    started.catch(() => undefined);
    this.checkpointInFlight = started;
  }

  /** A checkpoint a little later; one that fails (the writer has logged why) is tried again after a doubling pause. */
  private scheduleCheckpoint(delayMs: number, failures: number): void {
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.checkpoint().catch(() => {
        if (this.running && !this.timer)
          this.scheduleCheckpoint(Math.min(this.retryDelayMs * 2 ** failures, this.maxRetryDelayMs), failures + 1);
      });
    }, delayMs);
  }

  /**
   * Runs a write until it succeeds, pausing between tries (doubling up to maxRetryDelayMs) while it
   * fails for reasons that may pass. The log waits meanwhile: the subscription is not read further.
   */
  private async retrying(write: () => Promise<void>): Promise<void> {
    for (let failures = 0; ; failures++) {
      try {
        return await write();
      } catch (error) {
        if (!this.running) throw error;
        const delay = Math.min(this.retryDelayMs * 2 ** failures, this.maxRetryDelayMs);
        if (failures === 0 || delay === this.maxRetryDelayMs)
          this.log(`projection ${this.name}: a write failed, trying again in ${delay} ms: ${describe(error)}`);
        await this.pause(delay);
      }
    }
  }

  /** A pause that stop() cuts short, so that stopping never waits out a long retry delay. */
  private pause(ms: number): Promise<void> {
    return new Promise((resolve) => {
      let timer: NodeJS.Timeout | undefined;
      const done = () => {
        clearTimeout(timer);
        this.wakers.delete(done);
        resolve();
      };
      timer = setTimeout(done, ms);
      this.wakers.add(done);
    });
  }

  private refused({ table, source, error }: RefusedRow): Promise<void> {
    return this.deadLetter(source as RowSource, error, table);
  }

  /** Records an event the read models could not take, once per event, and says so. */
  private async deadLetter(event: RowSource, error: unknown, table?: string): Promise<void> {
    if (this.deadLettered.has(event.id)) return;
    const reason = `${table ? `${table}: ` : ''}${describe(error)}`;
    await this.readStore.insert('projection_dead_letters', [
      {
        runner: this.name,
        event_id: printable(event.id),
        stream: printable(event.streamName),
        type: printable(event.type),
        position: event.position,
        error: printable(reason).slice(0, 2_000),
        dead_lettered_at: Date.now(),
      },
    ]);
    this.deadLettered.add(event.id);
    this.deadLetters++;
    this.log(
      `projection ${this.name}: event ${event.id} (${event.type} in ${event.streamName}, position ${event.position}) set aside in projection_dead_letters: ${reason}`,
    );
  }

  /** Writes what is queued, then records how far that is. One at a time. */
  private checkpoint(): Promise<void> {
    this.checkpointing = this.checkpointing
      .catch(() => undefined)
      .then(async () => {
        clearTimeout(this.timer);
        this.timer = undefined;
        const upTo = this.queuedPosition;
        const { id, previousPosition } = this.queuedEvent;
        if (upTo <= this.checkpointPosition) return;
        await this.writer.flush();
        await this.readStore.insert('projection_checkpoints', [
          { name: this.name, position: upTo, event_id: id, previous_position: previousPosition, updated_at: Date.now() },
        ]);
        this.checkpointPosition = upTo;
      });
    return this.checkpointing;
  }

  /** Looks at the lag now and then; warns once when it grows past the threshold, and once when it is back. */
  private watchLag(): void {
    const interval = this.options.lagCheckIntervalMs ?? 10_000;
    const { events, seconds } = this.options.lagWarning ?? { events: 10_000, seconds: 60 };
    const look = async () => {
      try {
        // Counting past the threshold tells nothing more, and during a replay would read the log again.
        const lag = await this.lag(new Date(), events + 1);
        const behind = lag.events > events || lag.seconds > seconds;
        if (behind && !this.lagWarned)
          this.log(`projection ${this.name} is behind the log: ${lag.events} events, ${Math.round(lag.seconds)} s`);
        if (!behind && this.lagWarned) this.log(`projection ${this.name} has caught up with the log`);
        this.lagWarned = behind;
      } catch {
        // The store is down: handle() and the subscription say so.
      }
      if (this.running) this.lagTimer = setTimeout(() => void look(), interval);
    };
    this.lagTimer = setTimeout(() => void look(), interval);
  }
}

/** Text safe to store and log whatever the event held: well-formed, without control characters. */
const printable = (text: string) => text.toWellFormed().replace(/[\u0000-\u001F\u007F-\u009F]/g, ' ');

const describe = (error: unknown) => printable(error instanceof Error ? error.message : String(error));

/**
 * Forgets the checkpoint, then empties the projections' tables, for a rebuild from the first event.
 * In that order: a process killed part-way then starts from the first event over what is left (the
 * projections are idempotent), where a checkpoint kept past emptied tables would go on from it and
 * leave them empty for good.
 */
export async function resetReadModels(
  readStore: ReadStore,
  projections: readonly Projection[],
  name = READ_MODELS_CHECKPOINT,
): Promise<void> {
  await readStore.command('DELETE FROM projection_checkpoints WHERE name = {name:String}', { name });
  await readStore.command('DELETE FROM projection_dead_letters WHERE runner = {name:String}', { name });
  for (const table of new Set(projections.flatMap((p) => p.tables))) await readStore.command(`TRUNCATE TABLE IF EXISTS ${table}`);
}
