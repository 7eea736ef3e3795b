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

/**
 * Reads run a few at a time, the others wait their turn in order. Without it every request's query
 * started at once: 300 clients that each sent a year's keyword-updates and hung up 5 ms later left
 * 300 embedded ClickHouse queries running (96 more engine threads), and the next caller's read took
 * 49 s instead of 1.5 s. A waiting read whose caller has gone (its signal aborted) is dropped, so
 * abandoned requests cost nothing once they queue.
 */
export class ReadGate {
  private running = 0;
  private readonly waiting: { start: () => void; drop: () => void; signal: AbortSignal | undefined }[] = [];

  constructor(private readonly size: number) {}

  async run<T>(signal: AbortSignal | undefined, read: () => Promise<T>): Promise<T> {
    if (signal?.aborted) throw new QueryAbandoned();
    if (this.running >= this.size) await this.turn(signal);
    else this.running += 1;
    try {
      return await read();
    } finally {
      this.next();
    }
  }

  /** Waits for a place; the place is handed over by `next`, already counted. */
  private turn(signal: AbortSignal | undefined): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const entry = {
        signal,
        start: () => {
          signal?.removeEventListener('abort', entry.drop);
          resolve();
        },
        drop: () => {
          const at = this.waiting.indexOf(entry);
          if (at >= 0) this.waiting.splice(at, 1);
          reject(new QueryAbandoned());
        },
      };
      signal?.addEventListener('abort', entry.drop, { once: true });
      this.waiting.push(entry);
    });
  }

  private next(): void {
    const entry = this.waiting.shift();
    if (entry) entry.start();
    else this.running -= 1;
  }
}
