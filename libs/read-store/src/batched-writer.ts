import type { ReadStore } from './read-store.port';
import { isPermanentWriteError } from './write-errors';

type Row = Record<string, unknown>;

/**
 * Buffered rows and, at the same index, what produced each (an event, for the projection runner),
 * handed back if the row is refused. Two arrays rather than an object per row: a replay buffers
 * hundreds of thousands of rows, and an object each is that much more for the garbage collector.
 */
interface Rows {
  rows: Row[];
  sources: unknown[];
}

/** A row that the store refuses for good (see isPermanentWriteError), found by bisecting its batch. */
export interface RefusedRow {
  table: string;
  row: Row;
  source: unknown;
  error: unknown;
}

export type BatchSink = Pick<ReadStore, 'insert'>;

export interface FlushFailure {
  table: string;
  /** Rows of that table still buffered, the failed batch included. */
  bufferedRows: number;
}

export interface BatchedWriterOptions {
  /** A table is flushed once this many of its rows are buffered; also the most rows per insert. Default 5,000. */
  maxBatchRows?: number;
  /**
   * maxBatchRows for some tables, for rows much heavier than the others (a row of arrays holding a
   * check's 50 results): their batches would otherwise hold so much that they are written only at the
   * checkpoint, while the projecting waits, instead of beside it.
   */
  maxBatchRowsByTable?: Readonly<Record<string, number>>;
  /** The longest a row waits before a flush starts, and the pause before retrying a failed one. Default 500 ms. */
  flushIntervalMs?: number;
  /** Told about each failed background flush (the rows stay buffered and are retried). Default: console.error. */
  onFlushError?(error: unknown, failure: FlushFailure): void;
  /**
   * Told about each row the store refuses for good. With it, a batch that fails with a permanent
   * error is bisected until the refused rows are found; they are handed here and dropped from the
   * buffer, and the rest is written. Without it, such a batch is retried like any other.
   */
  onRefusedRow?(refused: RefusedRow): Promise<void> | void;
  /** The longest pause between retries of a failing table; the pause doubles from flushIntervalMs up to it. Default 60 s. */
  maxRetryDelayMs?: number;
}

interface TableBuffer extends Rows {
  /** A flush starts at this many rows, and an insert takes at most this many. */
  maxRows: number;
  /** The latest flush of this table; flushes of one table run one after another, in order. */
  tail: Promise<void>;
  sizeFlushQueued: boolean;
  /** After a failure, size-triggered flushes wait for the timer instead of hammering the store. */
  backingOffUntil: number;
  /** Failures in a row, for the doubling pause; 0 after a success. */
  failures: number;
}

/**
 * Buffers rows per table and writes them in batches: ClickHouse wants few large inserts, not one
 * per event. A table is flushed when it reaches `maxBatchRows`, when its oldest row has waited
 * `flushIntervalMs`, and on `flush()` / `close()`.
 *
 * Nothing is dropped silently: a failed insert puts its rows back at the head of the buffer, reports
 * the error, and is retried after a pause that doubles from `flushIntervalMs` up to `maxRetryDelayMs`.
 * A row the store refuses for good is handed to `onRefusedRow` (when given) and dropped. A projection that stores a checkpoint must
 * `await flush()` first, so that the checkpoint never gets ahead of the rows it covers. While the
 * store is down the buffer grows; `bufferedRows` tells how far.
 */
export class BatchedWriter {
  readonly #sink: BatchSink;
  readonly #maxBatchRows: number;
  readonly #maxBatchRowsByTable: ReadonlyMap<string, number>;
  readonly #flushIntervalMs: number;
  readonly #onFlushError: (error: unknown, failure: FlushFailure) => void;
  readonly #onRefusedRow: ((refused: RefusedRow) => Promise<void> | void) | undefined;
  readonly #maxRetryDelayMs: number;
  readonly #tables = new Map<string, TableBuffer>();
  #timer: NodeJS.Timeout | undefined;
  #closed = false;

  constructor(sink: BatchSink, options: BatchedWriterOptions = {}) {
    this.#sink = sink;
    this.#maxBatchRows = positiveInteger(options.maxBatchRows ?? 5_000, 'maxBatchRows');
    this.#maxBatchRowsByTable = new Map(
      Object.entries(options.maxBatchRowsByTable ?? {}).map(([table, rows]) => [
        table,
        positiveInteger(rows, `maxBatchRowsByTable.${table}`),
      ]),
    );
    this.#flushIntervalMs = positiveInteger(options.flushIntervalMs ?? 500, 'flushIntervalMs');
    this.#onRefusedRow = options.onRefusedRow;
    this.#maxRetryDelayMs = positiveInteger(options.maxRetryDelayMs ?? 60_000, 'maxRetryDelayMs');
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

  /** Buffers rows; `source` (what produced them) is handed back with any row the store refuses. */
  add(table: string, rowOrRows: Row | readonly Row[], source?: unknown): void {
    if (this.#closed) throw new Error(`BatchedWriter is closed: rows for ${table} would never be written`);
    const rows: readonly Row[] = Array.isArray(rowOrRows) ? rowOrRows : [rowOrRows as Row];
    if (rows.length === 0) return;
    const buffer = this.#buffer(table);
    for (const row of rows) {
      buffer.rows.push(row);
      buffer.sources.push(source);
    }
    if (buffer.rows.length >= buffer.maxRows && Date.now() >= buffer.backingOffUntil) {
      this.#flushFullBatchesInBackground(table, buffer);
    }
    this.#scheduleTimer();
  }

  /** Writes every row buffered so far; rejects (keeping the rows) if any table fails. */
  async flush(): Promise<void> {
    const results = await Promise.allSettled([...this.#tables].map(([table, buffer]) => this.#drain(table, buffer, 'everything')));
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
      const maxRows = this.#maxBatchRowsByTable.get(table) ?? this.#maxBatchRows;
      buffer = { rows: [], sources: [], maxRows, tail: Promise.resolve(), sizeFlushQueued: false, backingOffUntil: 0, failures: 0 };
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
    const backoff = Math.max(0, ...[...this.#tables.values()].map((b) => b.backingOffUntil - Date.now()));
    this.#timer = setTimeout(
      () => {
        this.#timer = undefined;
        void this.#flushOnTimer();
      },
      Math.max(this.#flushIntervalMs, backoff),
    );
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
      // 'everything' owes the rows buffered when it starts, not those added while it writes: chasing
      // them made a replay's flushes a string of small inserts (15 for 100,000 keyword rows) and
      // could keep a flush from ending while rows arrive. Later rows go in full batches or the next flush.
      let owed = mode === 'everything' ? buffer.rows.length : 0;
      while (buffer.rows.length > 0 && (owed > 0 || buffer.rows.length >= buffer.maxRows)) {
        const size = owed > 0 ? Math.min(owed, buffer.maxRows) : buffer.maxRows;
        const batch: Rows = { rows: buffer.rows.splice(0, size), sources: buffer.sources.splice(0, size) };
        try {
          await this.#insert(table, batch);
          owed = Math.max(0, owed - size);
          buffer.failures = 0;
        } catch (error) {
          // Back at the head, in order (concat, not unshift(...rows): a spread of 100,000 arguments overflows the stack).
          const unwritten = error instanceof UnwrittenRows ? error.unwritten : batch;
          buffer.rows = unwritten.rows.concat(buffer.rows);
          buffer.sources = unwritten.sources.concat(buffer.sources);
          buffer.failures++;
          buffer.backingOffUntil = Date.now() + Math.min(this.#flushIntervalMs * 2 ** (buffer.failures - 1), this.#maxRetryDelayMs);
          throw error instanceof UnwrittenRows ? error.cause : error;
        }
      }
    });
    // The next flush of this table starts after this one, whether it succeeded or not.
    buffer.tail = run.catch(() => undefined);
    return run;
  }

  /**
   * Inserts a batch; when the store refuses it for good, halves it until the refused rows are alone
   * (about 2·log2(n) inserts per refused row), hands them over, and writes the rest. A transient
   * failure on the way stops with the rows not yet written, to be retried.
   */
  async #insert(table: string, batch: Rows): Promise<void> {
    try {
      await this.#sink.insert(table, batch.rows);
    } catch (error) {
      if (this.#onRefusedRow === undefined || !isPermanentWriteError(error)) throw new UnwrittenRows(batch, error);
      if (batch.rows.length === 1) {
        await this.#onRefusedRow({ table, row: batch.rows[0]!, source: batch.sources[0], error });
        return;
      }
      const half = Math.ceil(batch.rows.length / 2);
      const first: Rows = { rows: batch.rows.slice(0, half), sources: batch.sources.slice(0, half) };
      const second: Rows = { rows: batch.rows.slice(half), sources: batch.sources.slice(half) };
      try {
        await this.#insert(table, first);
      } catch (inner) {
        if (!(inner instanceof UnwrittenRows)) throw inner;
        const unwritten = { rows: inner.unwritten.rows.concat(second.rows), sources: inner.unwritten.sources.concat(second.sources) };
        throw new UnwrittenRows(unwritten, inner.cause);
      }
      await this.#insert(table, second);
    }
  }

  #reportBackgroundFailure(table: string, buffer: TableBuffer, error: unknown): void {
    try {
      this.#onFlushError(error, { table, bufferedRows: buffer.rows.length });
    } finally {
      this.#scheduleTimer();
    }
  }
}

/** The rows of a batch not yet written when an insert failed, and why. */
class UnwrittenRows extends Error {
  constructor(
    readonly unwritten: Rows,
    override readonly cause: unknown,
  ) {
    super('rows not written');
  }
}

function positiveInteger(value: number, name: string): number {
  if (!Number.isInteger(value) || value <= 0) throw new Error(`BatchedWriter ${name} must be a positive integer, got ${value}`);
  return value;
}
