import { UpstreamError } from './upstream-error';

/** How often and how long a provider call is tried. */
export interface RetryPolicy {
  /** Tries in all, the first included (1 = no retry). */
  attempts: number;
  /** The first retry waits about this long, doubling each time (with jitter). */
  baseDelayMs: number;
  /** Per try: the whole exchange must end within this. */
  timeoutMs: number;
  /**
   * The whole call, retries and waits included, ends within this: a try gets what is left of it
   * as its timeout, and no retry starts when too little is left. Unset: only the tries bound it.
   */
  budgetMs?: number;
}

/**
 * Worth another try: the provider could not be reached, dropped the connection, was too slow, or
 * answered a server error (5xx) or a rate limit (429). A 4xx or a malformed body would only fail
 * the same way again.
 */
export function isTransient(error: unknown): boolean {
  if (!(error instanceof UpstreamError)) return false;
  if (error.kind === 'timeout' || error.kind === 'unreachable') return true;
  return error.kind === 'http' && error.status !== undefined && (error.status >= 500 || error.status === 429);
}

/** A pause that ends early when `signal` aborts. */
export function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}

/**
 * Runs `attempt` (given its timeout) until it succeeds, fails for good, or the tries or the time
 * budget run out; the last error is thrown. Once `signal` aborts (the caller stopped waiting), no
 * further try starts: the call ends with the last try's error instead of running on, paid for and
 * unread (the try in flight is the attempt's to cut off, with the same signal).
 */
export async function withRetry<T>(policy: RetryPolicy, attempt: (timeoutMs: number) => Promise<T>, signal?: AbortSignal): Promise<T> {
  const started = Date.now();
  const budget = policy.budgetMs ?? Number.POSITIVE_INFINITY;
  for (let tried = 1; ; tried++) {
    const left = budget - (Date.now() - started);
    try {
      return await attempt(Math.max(1, Math.min(policy.timeoutMs, left)));
    } catch (error) {
      const delay = Math.round(policy.baseDelayMs * 2 ** (tried - 1) * (0.75 + Math.random() * 0.5));
      const leftAfterWait = budget - (Date.now() - started) - delay;
      // A retry that would have almost no time for its answer only delays the failure.
      if (tried >= policy.attempts || !isTransient(error) || leftAfterWait < Math.min(1_000, policy.timeoutMs) || signal?.aborted)
        throw error;
      await pause(delay, signal);
      if (signal?.aborted) throw error;
    }
  }
}
