/**
 * Wrong operator tokens per client address, in fixed windows: after `limit` failures in a window,
 * the address is refused until the window ends, whatever token it sends, so guessing gains nothing.
 * Kept in this process's memory: the operator API is one replica's concern, and a restart forgiving
 * an address costs a guesser nothing it could use.
 */
export class FailedAttempts {
  readonly #windows = new Map<string, { startedAt: number; failures: number }>();

  constructor(
    readonly limit = 10,
    readonly windowMs = 60_000,
    private readonly now: () => number = Date.now,
  ) {}

  /** Seconds the address must wait before it is heard again; 0 when it may try. */
  retryAfterSeconds(address: string): number {
    const window = this.#current(address);
    if (!window || window.failures < this.limit) return 0;
    return Math.max(1, Math.ceil((window.startedAt + this.windowMs - this.now()) / 1000));
  }

  fail(address: string): void {
    const window = this.#current(address) ?? { startedAt: this.now(), failures: 0 };
    window.failures++;
    this.#windows.set(address, window);
    if (this.#windows.size > 10_000) this.#forgetEnded();
  }

  #current(address: string) {
    const window = this.#windows.get(address);
    if (window && this.now() - window.startedAt >= this.windowMs) {
      this.#windows.delete(address);
      return undefined;
    }
    return window;
  }

  #forgetEnded(): void {
    for (const address of [...this.#windows.keys()]) this.#current(address);
  }
}
