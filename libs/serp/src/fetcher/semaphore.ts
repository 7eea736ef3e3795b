/** Lets at most `limit` tasks run at once; the rest wait in arrival order. */
export class Semaphore {
  private free: number;
  private readonly waiting: Array<() => void> = [];

  constructor(readonly limit: number) {
    if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`Semaphore limit must be a positive integer, got ${limit}`);
    this.free = limit;
  }

  async run<T>(task: () => Promise<T>): Promise<T> {
    await this.acquire();
    try {
      return await task();
    } finally {
      this.release();
    }
  }

  private acquire(): Promise<void> {
    if (this.free > 0) {
      this.free--;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  private release(): void {
    // Hand the slot straight to the next waiter so a newcomer cannot jump the queue.
    const next = this.waiting.shift();
    if (next) next();
    else this.free++;
  }
}
