import type { ReadStore } from './read-store.port';

type Row = Record<string, unknown>;

export type BatchSink = Pick<ReadStore, 'insert'>;

export interface FlushFailure {
  table: string;
  /** Rows of that table still buffered, the failed batch included. */
  bufferedRows: number;
}

export interface BatchedWriterOptions {
  /** A table is flushed once this many of its rows are buffered; also the most rows per insert. Default 5,000. */
  maxBatchRows?: number;
  /** The longest a row waits before a flush starts, and the pause before retrying a failed one. Default 500 ms. */
  flushIntervalMs?: number;
  /** Told about each failed background flush (the rows stay buffered and are retried). Default: console.error. */
  onFlushError?(error: unknown, failure: FlushFailure): void;
}

interface TableBuffer {
  rows: Row[];
  /** The latest flush of this table; flushes of one table run one after another, in order. */
  tail: Promise<void>;
  sizeFlushQueued: boolean;
  /** After a failure, size-triggered flushes wait for the timer instead of hammering the store. */
  backingOffUntil: number;
}

/**
 * Buffers rows per table and writes them in batches: ClickHouse wants few large inserts, not one
 * per event. A table is flushed when it reaches `maxBatchRows`, when its oldest row has waited
 * `flushIntervalMs`, and on `flush()` / `close()`.
 *
 * Nothing is dropped: a failed insert puts its rows back at the head of the buffer, reports the
 * error, and is retried after `flushIntervalMs`. A projection that stores a checkpoint must
 * `await flush()` first, so that the checkpoint never gets ahead of the rows it covers. While the
 * store is down the buffer grows; `bufferedRows` tells how far.
 */
export class BatchedWriter {
  readonly #sink: BatchSink;
  readonly #maxBatchRows: number;
  readonly #flushIntervalMs: number;
  readonly #onFlushError: (error: unknown, failure: FlushFailure) => void;
  readonly #tables = new Map<string, TableBuffer>();
  #timer: NodeJS.Timeout | undefined;
  #closed = false;

  constructor(sink: BatchSink, options: BatchedWriterOptions = {}) {
    this.#sink = sink;
    this.#maxBatchRows = positiveInteger(options.maxBatchRows ?? 5_000, 'maxBatchRows');
    this.#flushIntervalMs = positiveInteger(options.flushIntervalMs ?? 500, 'flushIntervalMs');
    this.#onFlushError =
      options.onFlushError ??
      ((error, failure) =>
        console.error(`BatchedWriter: flushing ${failure.table} failed, ${failure.bufferedRows} rows kept for retry:`, error));
  }

  get bufferedRows(): number {
    let total = 0;
    for (const buffer of this.#tables.values()) total += buffer.rows.length;
    return total;
  }

  add(table: string, rowOrRows: Row | readonly Row[]): void {
    if (this.#closed) throw new Error(`BatchedWriter is closed: rows for ${table} would never be written`);
    const rows: readonly Row[] = Array.isArray(rowOrRows) ? rowOrRows : [rowOrRows as Row];
    if (rows.length === 0) return;
    const buffer = this.#buffer(table);
    for (const row of rows) buffer.rows.push(row);
    if (buffer.rows.length >= this.#maxBatchRows && Date.now() >= buffer.backingOffUntil) {
      this.#flushFullBatchesInBackground(table, buffer);
    }
    this.#scheduleTimer();
  }

  /** Writes every row buffered so far; rejects (keeping the rows) if any table fails. */
  async flush(): Promise<void> {
    const results = await Promise.allSettled(
      [...this.#tables].map(([table, buffer]) => this.#drain(table, buffer, 'everything')),
    );
    const failure = results.find((result): result is PromiseRejectedResult => result.status === 'rejected');
    if (failure !== undefined) throw failure.reason;
  }

  /** Stops the timer and flushes. If that fails the rows stay buffered and `flush()` may be retried. */
  async close(): Promise<void> {
    this.#closed = true;
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    await this.flush();
  }

  #buffer(table: string): TableBuffer {
    let buffer = this.#tables.get(table);
    if (buffer === undefined) {
      buffer = { rows: [], tail: Promise.resolve(), sizeFlushQueued: false, backingOffUntil: 0 };
      this.#tables.set(table, buffer);
    }
    return buffer;
  }

  #flushFullBatchesInBackground(table: string, buffer: TableBuffer): void {
    // Rows added while this flush waits its turn are picked up by it, so one queued flush is enough.
    if (buffer.sizeFlushQueued) return;
    buffer.sizeFlushQueued = true;
    this.#drain(table, buffer, 'full-batches', () => (buffer.sizeFlushQueued = false)).catch((error: unknown) =>
      this.#reportBackgroundFailure(table, buffer, error),
    );
  }

  #scheduleTimer(): void {
    if (this.#timer !== undefined || this.#closed || this.bufferedRows === 0) return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      void this.#flushOnTimer();
    }, this.#flushIntervalMs);
  }

  async #flushOnTimer(): Promise<void> {
    await Promise.all(
      [...this.#tables].map(([table, buffer]) =>
        this.#drain(table, buffer, 'everything').catch((error: unknown) => this.#reportBackgroundFailure(table, buffer, error)),
      ),
    );
    // Rows that failed, or arrived meanwhile, get the next tick.
    this.#scheduleTimer();
  }

  #drain(table: string, buffer: TableBuffer, mode: 'full-batches' | 'everything', onStart?: () => void): Promise<void> {
    const run = buffer.tail.then(async () => {
      onStart?.();
      while (buffer.rows.length > 0 && (mode === 'everything' || buffer.rows.length >= this.#maxBatchRows)) {
        const batch = buffer.rows.splice(0, this.#maxBatchRows);
        try {
          await this.#sink.insert(table, batch);
        } catch (error) {
          buffer.rows.unshift(...batch);
          buffer.backingOffUntil = Date.now() + this.#flushIntervalMs;
          throw error;
        }
      }
    });
    // The next flush of this table starts after this one, whether it succeeded or not.
    buffer.tail = run.catch(() => undefined);
    return run;
  }

  #reportBackgroundFailure(table: string, buffer: TableBuffer, error: unknown): void {
    try {
      this.#onFlushError(error, { table, bufferedRows: buffer.rows.length });
    } finally {
      this.#scheduleTimer();
    }
  }
}

function positiveInteger(value: number, name: string): number {
  if (!Number.isInteger(value) || value <= 0) throw new Error(`BatchedWriter ${name} must be a positive integer, got ${value}`);
  return value;
}
