import { BatchedWriter, type BatchSink } from './batched-writer';
import { createTestReadStore } from './testing/test-read-store';

type Row = Record<string, unknown>;

/** Records every insert; `failNext` makes the next inserts reject. */
class RecordingSink implements BatchSink {
  readonly inserts: { table: string; rows: Row[] }[] = [];
  failuresLeft = 0;

  async insert(table: string, rows: readonly Row[]): Promise<void> {
    if (this.failuresLeft > 0) {
      this.failuresLeft -= 1;
      throw new Error('ClickHouse is down');
    }
    this.inserts.push({ table, rows: [...rows] });
  }

  rowsOf(table: string): Row[] {
    return this.inserts.filter((insert) => insert.table === table).flatMap((insert) => insert.rows);
  }
}

const rows = (count: number, from = 0): Row[] => Array.from({ length: count }, (_, index) => ({ n: from + index }));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('BatchedWriter', () => {
  const writers: BatchedWriter[] = [];
  const makeWriter = (sink: BatchSink, options: ConstructorParameters<typeof BatchedWriter>[1]) => {
    const writer = new BatchedWriter(sink, options);
    writers.push(writer);
    return writer;
  };
  afterEach(async () => {
    await Promise.allSettled(writers.splice(0).map((writer) => writer.close()));
  });

  it('flushes a table as soon as it holds a full batch, without waiting for the timer', async () => {
    const sink = new RecordingSink();
    const writer = makeWriter(sink, { maxBatchRows: 3, flushIntervalMs: 60_000 });

    writer.add('positions', rows(2));
    await sleep(5);
    expect(sink.inserts).toEqual([]);

    writer.add('positions', rows(2, 2));
    writer.add('pages', rows(1));
    await sleep(5);

    expect(sink.inserts).toEqual([{ table: 'positions', rows: rows(3) }]);
    expect(writer.bufferedRows).toBe(2);
  });

  it("takes a table's own batch size where one is given, the common one for the others", async () => {
    const sink = new RecordingSink();
    const writer = makeWriter(sink, { maxBatchRows: 4, maxBatchRowsByTable: { results: 2 }, flushIntervalMs: 60_000 });

    writer.add('results', rows(5));
    writer.add('positions', rows(3));
    await sleep(5);
    // Two full batches of results; positions waits for its fourth row.
    expect(sink.inserts).toEqual([
      { table: 'results', rows: rows(2) },
      { table: 'results', rows: rows(2, 2) },
    ]);
    await writer.flush();
    expect(sink.inserts.slice(2)).toEqual([
      { table: 'results', rows: rows(1, 4) },
      { table: 'positions', rows: rows(3) },
    ]);
    expect(() => new BatchedWriter(sink, { maxBatchRowsByTable: { results: 0 } })).toThrow('maxBatchRowsByTable.results');
  });

  it('flushes whatever is buffered once the interval has passed', async () => {
    const sink = new RecordingSink();
    const writer = makeWriter(sink, { maxBatchRows: 1000, flushIntervalMs: 150 });

    writer.add('positions', rows(2));
    writer.add('pages', { n: 'p' });
    await sleep(20);
    expect(sink.inserts).toEqual([]);
    await sleep(400);

    expect(sink.rowsOf('positions')).toEqual(rows(2));
    expect(sink.rowsOf('pages')).toEqual([{ n: 'p' }]);
    expect(writer.bufferedRows).toBe(0);
  });

  it('flushes everything on close, in batches of at most maxBatchRows, and refuses rows afterwards', async () => {
    const sink = new RecordingSink();
    const writer = makeWriter(sink, { maxBatchRows: 4, flushIntervalMs: 60_000 });
    // Added in one call, so no size flush has had a chance to run before close().
    writer.add('positions', rows(10));

    await writer.close();

    expect(sink.inserts.map((insert) => insert.rows.length)).toEqual([4, 4, 2]);
    expect(sink.rowsOf('positions')).toEqual(rows(10));
    expect(() => writer.add('positions', rows(1))).toThrow(/closed/);
  });

  it('keeps the rows of a failed flush, reports the error, and retries them in order', async () => {
    const sink = new RecordingSink();
    const failures: unknown[] = [];
    const writer = makeWriter(sink, {
      maxBatchRows: 2,
      flushIntervalMs: 30,
      onFlushError: (error, failure) => failures.push({ message: (error as Error).message, ...failure }),
    });
    sink.failuresLeft = 1;

    writer.add('positions', rows(2));
    await sleep(5);
    expect(failures).toEqual([{ message: 'ClickHouse is down', table: 'positions', bufferedRows: 2 }]);
    writer.add('positions', rows(1, 2));
    await sleep(300);

    expect(sink.rowsOf('positions')).toEqual(rows(3));
    expect(writer.bufferedRows).toBe(0);
  });

  it('rejects flush() while the store fails, and loses nothing when it is retried', async () => {
    const sink = new RecordingSink();
    const writer = makeWriter(sink, { maxBatchRows: 100, flushIntervalMs: 60_000 });
    writer.add('positions', rows(3));
    sink.failuresLeft = 1;

    await expect(writer.flush()).rejects.toThrow('ClickHouse is down');
    expect(writer.bufferedRows).toBe(3);
    await writer.flush();

    expect(sink.rowsOf('positions')).toEqual(rows(3));
  });

  it('flush() writes the rows buffered when it starts and leaves rows added while it writes for the next one', async () => {
    const inserts: number[][] = [];
    const sink = {
      insert: async (_table: string, batch: readonly Row[]) => {
        await sleep(20);
        inserts.push(batch.map((row) => row.n as number));
      },
    };
    const writer = makeWriter(sink, { maxBatchRows: 1_000, flushIntervalMs: 60_000 });
    writer.add('positions', rows(3));
    const flushed = writer.flush();
    await sleep(5);
    writer.add('positions', rows(2, 3));

    await flushed;
    expect(inserts).toEqual([[0, 1, 2]]);
    expect(writer.bufferedRows).toBe(2);
    await writer.flush();
    expect(inserts).toEqual([
      [0, 1, 2],
      [3, 4],
    ]);
  });

  it('puts a failed batch of 200,000 rows back at the head of the buffer whole and in order', async () => {
    const sink = new RecordingSink();
    // A batch above 200,000 rows: no size flush starts before flush() below.
    const writer = makeWriter(sink, { maxBatchRows: 250_000, flushIntervalMs: 60_000 });
    writer.add('positions', rows(200_000));
    sink.failuresLeft = 1;
    await expect(writer.flush()).rejects.toThrow('ClickHouse is down');
    writer.add('positions', rows(1, 200_000));

    await writer.flush();

    expect(sink.inserts.map((insert) => insert.rows.length)).toEqual([200_001]);
    expect(sink.rowsOf('positions')).toEqual(rows(200_001));
  });

  it('bisects a batch the store refuses for good down to the refused rows, hands them over with their source, and writes the rest', async () => {
    const written: Row[] = [];
    let inserts = 0;
    const sink = {
      insert: async (_table: string, rows: readonly Row[]) => {
        inserts++;
        if (rows.some((r) => r.bad))
          throw Object.assign(new Error('Cannot parse escape sequence'), { type: 'CANNOT_PARSE_ESCAPE_SEQUENCE' });
        written.push(...rows);
      },
    };
    const refused: { row: Row; source: unknown }[] = [];
    const writer = new BatchedWriter(sink, { maxBatchRows: 64, onRefusedRow: ({ row, source }) => void refused.push({ row, source }) });
    for (let i = 0; i < 64; i++) writer.add('t', { i, bad: i === 5 || i === 40 }, `event ${i}`);
    await writer.close();
    expect(refused).toEqual([
      { row: { i: 5, bad: true }, source: 'event 5' },
      { row: { i: 40, bad: true }, source: 'event 40' },
    ]);
    expect(written.map((r) => r.i)).toEqual(Array.from({ length: 64 }, (_, i) => i).filter((i) => i !== 5 && i !== 40));
    expect(inserts).toBeLessThanOrEqual(1 + 2 * 2 * Math.log2(64)); // about 2·log2(n) per refused row
  });

  it('never sets aside rows for a failure that may pass, and waits longer after each failure', async () => {
    let failures = 3;
    const attempts: number[] = [];
    const sink = {
      insert: async () => {
        attempts.push(Date.now());
        if (failures-- > 0) throw Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
      },
    };
    const refused: unknown[] = [];
    const writer = new BatchedWriter(sink, {
      flushIntervalMs: 20,
      maxRetryDelayMs: 1_000,
      onRefusedRow: (r) => void refused.push(r),
      onFlushError: () => undefined,
    });
    writer.add('t', { a: 1 });
    while (attempts.length < 4) await new Promise((r) => setTimeout(r, 10));
    await writer.close();
    expect(refused).toEqual([]);
    // The pauses double from the flush interval: 20, 40, 80 ms. A timer never fires early, but a busy
    // machine fires it late, so only the floors are asserted (less 2 ms for the clocks' rounding).
    const gaps = attempts.slice(1).map((at, i) => at - attempts[i]!);
    expect(gaps.map((gap, i) => gap >= 20 * 2 ** i - 2)).toEqual([true, true, true]);
  });

  it('writes to a real read store', async () => {
    const store = await createTestReadStore();
    try {
      await store.command('CREATE TABLE batched (n UInt32) ENGINE = MergeTree ORDER BY n');
      const writer = makeWriter(store, { maxBatchRows: 500, flushIntervalMs: 60_000 });
      writer.add('batched', rows(1_250));
      await writer.flush();

      expect(await store.query('SELECT count() AS rows, sum(n) AS total FROM batched')).toEqual([{ rows: '1250', total: '780625' }]);
    } finally {
      await store.close();
    }
  });
});
