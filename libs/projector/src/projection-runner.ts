import type { EventStore, RecordedEvent, Subscription } from '@rank/event-store/event-store.port';
import { BatchedWriter } from '@rank/read-store/batched-writer';
import type { ReadStore } from '@rank/read-store/read-store.port';
import type { Projection, ReadModelChange } from '@rank/read-store/projection';

export interface ProjectionRunnerOptions {
  /** Checkpoint name: one runner, one position in the log. */
  name?: string;
  /** Flush and checkpoint after this many events, whatever the time. */
  maxEventsPerCheckpoint?: number;
  /** Flush and checkpoint this long after the first unflushed event. */
  checkpointIntervalMs?: number;
  /** Pause before re-subscribing after a failure. */
  retryDelayMs?: number;
  log?: (message: string) => void;
}

/**
 * Follows the whole event log from the stored checkpoint and applies the projections' changes to
 * ClickHouse in batches. The checkpoint is saved only after the rows it covers are written, so a
 * crash replays a little and never skips; the tables are keyed so that replaying is harmless.
 * A failure (ClickHouse down, say) restarts the subscription from the last checkpoint.
 */
export class ProjectionRunner {
  private readonly name: string;
  private readonly writer: BatchedWriter;
  private subscription: Subscription | undefined;
  private running = false;
  /** Position of the last event whose changes are queued (not necessarily written). */
  private queuedPosition = 0;
  /** Position the stored checkpoint has reached: everything up to it is written. */
  private checkpointPosition = 0;
  private eventsSinceCheckpoint = 0;
  /** Events handled since start (for progress reports). */
  eventsHandled = 0;
  private timer: NodeJS.Timeout | undefined;
  private checkpointing: Promise<void> = Promise.resolve();
  private restartTimer: NodeJS.Timeout | undefined;
  private readonly log: (message: string) => void;

  constructor(
    private readonly store: EventStore,
    private readonly readStore: ReadStore,
    private readonly projections: readonly Projection[],
    private readonly options: ProjectionRunnerOptions = {},
  ) {
    this.name = options.name ?? 'read-models';
    this.log = options.log ?? ((m) => console.warn(m));
    this.writer = new BatchedWriter(readStore, { maxBatchRows: 20_000, flushIntervalMs: 1_000 });
  }

  /** Position up to which every read model is written. */
  get position(): number {
    return this.checkpointPosition;
  }

  async start(): Promise<void> {
    this.running = true;
    this.checkpointPosition = await this.loadCheckpoint();
    this.queuedPosition = this.checkpointPosition;
    this.subscribe();
  }

  async stop(): Promise<void> {
    this.running = false;
    clearTimeout(this.restartTimer);
    await this.subscription?.stop();
    this.subscription = undefined;
    await this.checkpoint();
    await this.writer.close();
  }

  /** Resolves once every event in the log when called has been written to the read models. */
  async waitUntilCaughtUp(timeoutMs = 30_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    const [newest] = await this.newestEvents();
    if (!newest) return;
    while (this.checkpointPosition < newest.position) {
      if (Date.now() > deadline) throw new Error(`projections stuck at ${this.checkpointPosition}, log at ${newest.position}`);
      await this.checkpoint();
      await new Promise((r) => setTimeout(r, 10));
    }
  }

  private async newestEvents(): Promise<RecordedEvent[]> {
    // The port reads the log forwards only; walking from our checkpoint keeps this cheap.
    let after = this.checkpointPosition;
    let last: RecordedEvent | undefined;
    for (;;) {
      const page = await this.store.readAll({ afterPosition: after, maxCount: 1000 });
      if (page.length === 0) break;
      last = page[page.length - 1];
      after = last!.position;
    }
    return last ? [last] : [];
  }

  private subscribe(): void {
    this.subscription = this.store.subscribeToAll({
      afterPosition: this.checkpointPosition,
      onEvent: (event) => this.handle(event),
      onError: (error) => {
        this.log(`projection ${this.name} failed at ${this.queuedPosition}, restarting from ${this.checkpointPosition}: ${String(error)}`);
        this.subscription = undefined;
        if (!this.running) return;
        this.restartTimer = setTimeout(() => {
          this.queuedPosition = this.checkpointPosition;
          if (this.running) this.subscribe();
        }, this.options.retryDelayMs ?? 1_000);
      },
    });
  }

  private async handle(event: RecordedEvent): Promise<void> {
    const changes: ReadModelChange[] = this.projections.flatMap((p) => p.project(event));
    for (const change of changes) {
      if (change.kind === 'insert') {
        this.writer.add(change.table, change.row);
      } else {
        // Rows queued before the delete must land before it, or they would survive it.
        await this.writer.flush();
        await this.readStore.command(`DELETE FROM ${change.table} WHERE ${change.column} = {value:String}`, { value: change.value });
      }
    }
    this.queuedPosition = event.position;
    this.eventsSinceCheckpoint++;
    this.eventsHandled++;
    if (this.eventsSinceCheckpoint >= (this.options.maxEventsPerCheckpoint ?? 5_000)) {
      await this.checkpoint();
    } else if (!this.timer) {
      this.timer = setTimeout(() => {
        this.timer = undefined;
        void this.checkpoint().catch((e: unknown) => this.log(`projection ${this.name}: checkpoint failed: ${String(e)}`));
      }, this.options.checkpointIntervalMs ?? 200);
    }
  }

  /** Writes what is queued, then records how far that is. One at a time. */
  private checkpoint(): Promise<void> {
    this.checkpointing = this.checkpointing.catch(() => undefined).then(async () => {
      clearTimeout(this.timer);
      this.timer = undefined;
      const upTo = this.queuedPosition;
      if (upTo <= this.checkpointPosition) return;
      this.eventsSinceCheckpoint = 0;
      await this.writer.flush();
      await this.readStore.insert('projection_checkpoints', [{ name: this.name, position: upTo, updated_at: Date.now() }]);
      this.checkpointPosition = upTo;
    });
    return this.checkpointing;
  }

  private async loadCheckpoint(): Promise<number> {
    const [row] = await this.readStore.query<{ position: string }>(
      'SELECT toString(max(position)) AS position FROM projection_checkpoints WHERE name = {name:String}',
      { name: this.name },
    );
    return Number(row?.position ?? 0);
  }
}

/** Empties the projections' tables and forgets the checkpoint, for a rebuild from the first event. */
export async function resetReadModels(readStore: ReadStore, projections: readonly Projection[], name = 'read-models'): Promise<void> {
  for (const table of new Set(projections.flatMap((p) => p.tables))) await readStore.command(`TRUNCATE TABLE IF EXISTS ${table}`);
  await readStore.command('DELETE FROM projection_checkpoints WHERE name = {name:String}', { name });
}
