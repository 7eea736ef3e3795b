import { RATE_LIMIT_WINDOWS, RateLimitBucket, RateLimitDecision, RateLimiter, RateLimitWindow } from './rate-limiter';

/** Milliseconds since the epoch; a test passes its own. */
export type Now = () => number;

/**
 * Sliding windows in this process: each (bucket, window, account) keeps the times of the calls it let
 * through, so "10 per 60 s" holds over any 60 s, not per fixed minute (fixed counters let 10 calls
 * at 0:59 and 10 more at 1:01). A call must find room in every window of its bucket and is then
 * written in all of them; a refused call is written nowhere, so it uses nothing of the hourly
 * allowance.
 */
export class InProcessRateLimiter implements RateLimiter {
  /** By `${bucket}:${windowSeconds}:${accountId}`: the window's length and the times of the calls it let through, oldest first. */
  private readonly calls = new Map<string, { spanMs: number; times: number[] }>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(private readonly now: Now = Date.now) {
    // Logs of accounts that stopped calling would stay for ever; every minute, drop those gone quiet.
    this.sweeper = setInterval(() => this.sweep(), 60_000).unref();
  }

  async consume(bucket: RateLimitBucket, accountId: string): Promise<RateLimitDecision> {
    const now = this.now();
    const windows = RATE_LIMIT_WINDOWS[bucket].map((window) => ({ window, log: this.logOf(bucket, window, accountId, now) }));
    let refusal: { window: RateLimitWindow; waitMs: number } | undefined;
    for (const { window, log } of windows) {
      if (log.length < window.limit) continue;
      // Room comes back when the call that filled the window leaves it.
      const waitMs = log[log.length - window.limit]! + window.windowSeconds * 1000 - now;
      if (!refusal || waitMs > refusal.waitMs) refusal = { window, waitMs };
    }
    if (refusal) return refused(refusal.window, refusal.waitMs);
    for (const { log } of windows) log.push(now);
    return { allowed: true, remaining: Math.min(...windows.map(({ window, log }) => window.limit - log.length)) };
  }

  async remaining(bucket: RateLimitBucket, accountId: string): Promise<number> {
    const now = this.now();
    return Math.max(
      0,
      Math.min(...RATE_LIMIT_WINDOWS[bucket].map((window) => window.limit - this.logOf(bucket, window, accountId, now).length)),
    );
  }

  async close(): Promise<void> {
    clearInterval(this.sweeper);
  }

  /** The window's log with the calls that left it dropped. */
  private logOf(bucket: RateLimitBucket, window: RateLimitWindow, accountId: string, now: number): number[] {
    const key = `${bucket}:${window.windowSeconds}:${accountId}`;
    let log = this.calls.get(key);
    if (!log) this.calls.set(key, (log = { spanMs: window.windowSeconds * 1000, times: [] }));
    const { times } = log;
    let left = 0;
    while (left < times.length && times[left]! <= now - log.spanMs) left++;
    if (left > 0) times.splice(0, left);
    return times;
  }

  private sweep(): void {
    const now = this.now();
    for (const [key, { spanMs, times }] of this.calls) {
      if (times.length === 0 || times[times.length - 1]! <= now - spanMs) this.calls.delete(key);
    }
  }
}

/** A refusal naming the full window and the whole seconds until it has room (at least 1). */
export const refused = (window: RateLimitWindow, waitMs: number): RateLimitDecision => ({
  allowed: false,
  retryAfter: Math.max(1, Math.ceil(waitMs / 1000)),
  limit: window.limit,
  window: window.windowSeconds,
});
