/**
 * The query of a caller that went away before it started (a client that closed its connection):
 * it is not run. Not a failure of the store.
 */
export class QueryAbandoned extends Error {
  constructor() {
    super('the query was not run: its caller went away before its turn');
    this.name = 'QueryAbandoned';
  }
}

/** A read asked of a store that is closing or closed (the service stopping): it is not run. */
export class ReadStoreClosed extends Error {
  constructor(database: string) {
    super(`The read store for database ${database} is closed`);
    this.name = 'ReadStoreClosed';
  }
}

/**
 * Reads run a few at a time, the others wait their turn in order. Without it every request's query
 * started at once: 300 clients that each sent a year's keyword-updates and hung up 5 ms later left
 * 300 embedded ClickHouse queries running (96 more engine threads), and the next caller's read took
 * 49 s instead of 1.5 s. A waiting read whose caller has gone (its signal aborted) is dropped, so
 * abandoned requests cost nothing once they queue.
 */
export class ReadGate {
  private running = 0;
  private readonly waiting: { start: () => void; drop: (reason: Error) => void }[] = [];
  private closed: Error | undefined;
  private drained: (() => void) | undefined;

  constructor(private readonly size: number) {}

  async run<T>(signal: AbortSignal | undefined, read: () => Promise<T>): Promise<T> {
    if (this.closed) throw this.closed;
    if (signal?.aborted) throw new QueryAbandoned();
    if (this.running >= this.size) await this.turn(signal);
    else this.running += 1;
    try {
      return await read();
    } catch (error) {
      // A read cut off because its caller went (a server cancels it) is no failure of the store either.
      throw signal?.aborted ? new QueryAbandoned() : error;
    } finally {
      this.next();
    }
  }

  /** Waits for a place; the place is handed over by `next`, already counted. */
  private turn(signal: AbortSignal | undefined): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const abandon = () => entry.drop(new QueryAbandoned());
      const entry = {
        start: () => {
          signal?.removeEventListener('abort', abandon);
          resolve();
        },
        drop: (reason: Error) => {
          signal?.removeEventListener('abort', abandon);
          const at = this.waiting.indexOf(entry);
          if (at >= 0) this.waiting.splice(at, 1);
          reject(reason);
        },
      };
      signal?.addEventListener('abort', abandon, { once: true });
      this.waiting.push(entry);
    });
  }

  /**
   * Refuses every read from now on with `reason` (those waiting too), and resolves once the reads
   * running have ended: the store's connection can then close under none of them. At a shutdown,
   * reads of requests whose clients had gone were still queued, and 591 failed on the closed
   * connection, each logged with its stack.
   */
  close(reason: Error): Promise<void> {
    this.closed ??= reason;
    for (const entry of [...this.waiting]) entry.drop(reason);
    if (this.running === 0) return Promise.resolve();
    return new Promise<void>((resolve) => (this.drained = resolve));
  }

  private next(): void {
    const entry = this.waiting.shift();
    if (entry) return entry.start();
    this.running -= 1;
    if (this.running === 0) this.drained?.();
  }
}
