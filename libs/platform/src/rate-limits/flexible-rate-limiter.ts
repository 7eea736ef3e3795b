import { RateLimiterAbstract, RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { RATE_LIMIT_WINDOWS, RateLimitBucket, RateLimitDecision, RateLimiter, RateLimitWindow } from './rate-limiter';

/** Makes the counter of one window of one bucket; the adapters differ only in where counters live. */
export type WindowCounterFactory = (bucket: RateLimitBucket, window: RateLimitWindow) => RateLimiterAbstract;

interface WindowCounter {
  window: RateLimitWindow;
  counter: RateLimiterAbstract;
}

/**
 * The port over rate-limiter-flexible's fixed-window counters. A call takes a point from every
 * window of its bucket at once (each increment is atomic in the store, so concurrent replicas never
 * let more through than the limit); when any window is full, every point is given back, so refused
 * calls do not use up the hourly allowance.
 */
export class FlexibleRateLimiter implements RateLimiter {
  private readonly counters: ReadonlyMap<RateLimitBucket, readonly WindowCounter[]>;

  constructor(
    makeCounter: WindowCounterFactory,
    private readonly onClose: () => Promise<void> = async () => {},
  ) {
    this.counters = new Map(
      (Object.keys(RATE_LIMIT_WINDOWS) as RateLimitBucket[]).map((bucket) => [
        bucket,
        RATE_LIMIT_WINDOWS[bucket].map((window) => ({ window, counter: makeCounter(bucket, window) })),
      ]),
    );
  }

  async consume(bucket: RateLimitBucket, accountId: string): Promise<RateLimitDecision> {
    const windows = this.windowsOf(bucket);
    const outcomes = await Promise.allSettled(windows.map((w) => w.counter.consume(accountId)));
    const failure = outcomes.find((o) => o.status === 'rejected' && !(o.reason instanceof RateLimiterRes));
    const full = outcomes.flatMap((o, i) =>
      o.status === 'rejected' && o.reason instanceof RateLimiterRes ? [{ window: windows[i]!.window, res: o.reason }] : [],
    );
    if (failure || full.length > 0) {
      // Give back what this call took: points in open windows, and the over-count in the full ones.
      await Promise.allSettled(
        outcomes.map((o, i) =>
          o.status === 'fulfilled' || o.reason instanceof RateLimiterRes ? windows[i]!.counter.reward(accountId, 1) : Promise.resolve(),
        ),
      );
      if (failure) throw (failure as PromiseRejectedResult).reason;
      const longest = full.reduce((a, b) => (b.res.msBeforeNext > a.res.msBeforeNext ? b : a));
      return {
        allowed: false,
        retryAfter: Math.max(1, Math.ceil(longest.res.msBeforeNext / 1000)),
        limit: longest.window.limit,
        window: longest.window.windowSeconds,
      };
    }
    const remaining = Math.min(...outcomes.map((o) => (o as PromiseFulfilledResult<RateLimiterRes>).value.remainingPoints));
    return { allowed: true, remaining: Math.max(0, remaining) };
  }

  async remaining(bucket: RateLimitBucket, accountId: string): Promise<number> {
    const windows = this.windowsOf(bucket);
    const seen = await Promise.all(windows.map((w) => w.counter.get(accountId)));
    return Math.max(0, Math.min(...windows.map((w, i) => w.window.limit - (seen[i]?.consumedPoints ?? 0))));
  }

  close(): Promise<void> {
    return this.onClose();
  }

  private windowsOf(bucket: RateLimitBucket): readonly WindowCounter[] {
    const windows = this.counters.get(bucket);
    if (!windows) throw new Error(`Unknown rate-limit bucket ${bucket}`);
    return windows;
  }
}

const keyPrefix = (bucket: RateLimitBucket, window: RateLimitWindow) => `rate-limit:${bucket}:${window.windowSeconds}s`;

/** Counters in this process: a standalone run, or a test. */
export function inProcessRateLimiter(): FlexibleRateLimiter {
  return new FlexibleRateLimiter(
    (bucket, window) =>
      new RateLimiterMemory({ keyPrefix: keyPrefix(bucket, window), points: window.limit, duration: window.windowSeconds }),
  );
}

export { keyPrefix as rateLimitKeyPrefix };
