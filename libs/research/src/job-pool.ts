/**
 * Background jobs run side by side, up to `size` at once, in the order they were added; a job joins
 * as soon as a place is free, also while others run. Research's background work calls outside
 * providers that can hang until their timeout: in one line, one account's hanging call held back
 * every other account's work.
 */
export class JobPool<T> {
  private readonly waiting: T[] = [];
  private readonly running = new Map<Promise<void>, T>();
  private stopped = false;

  constructor(
    private readonly size: number,
    private readonly run: (job: T) => Promise<void>,
    private readonly options: {
      /** Whether a waiting job may start beside the running ones (one project at a time, say); yes by default. */
      mayStart?: (job: T, running: readonly T[]) => boolean;
      /** After each job, whether it succeeded or threw. */
      onSettled?: (error: unknown) => void;
    } = {},
  ) {}

  add(...jobs: T[]): void {
    this.waiting.push(...jobs);
    this.startWhatFits();
  }

  /** Jobs waiting or running. */
  get pending(): number {
    return this.waiting.length + this.running.size;
  }

  /** Jobs waiting and running. */
  get jobs(): T[] {
    return [...this.waiting, ...this.running.values()];
  }

  /** Starts nothing more; resolves once the running jobs have ended. */
  async stop(): Promise<void> {
    this.stopped = true;
    await Promise.allSettled([...this.running.keys()]);
  }

  private startWhatFits(): void {
    while (!this.stopped && this.running.size < this.size) {
      const running = [...this.running.values()];
      const next = this.waiting.findIndex((job) => this.options.mayStart?.(job, running) ?? true);
      if (next < 0) return;
      const [job] = this.waiting.splice(next, 1) as [T];
      let error: unknown;
      const done: Promise<void> = this.run(job)
        .catch((e: unknown) => {
          error = e ?? new Error('job failed');
        })
        .finally(() => {
          this.running.delete(done);
          this.startWhatFits();
          this.options.onSettled?.(error);
        });
      this.running.set(done, job);
    }
  }
}
