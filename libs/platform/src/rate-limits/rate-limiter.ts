import { LIMITS } from '@rank/domain/limits';

/** The per-account buckets of the spec's Limits table. keyword-research and keyword-ideas share `keywordResearch`. */
export type RateLimitBucket = 'serpCheck' | 'keywordResearch' | 'trafficCheck' | 'domainReads';

/** At most `limit` calls in any `windowSeconds` window. */
export interface RateLimitWindow {
  limit: number;
  windowSeconds: number;
}

const { rateLimits } = LIMITS;

/** Every window of a bucket must have room for a call to pass; read from the shared kernel's LIMITS. */
export const RATE_LIMIT_WINDOWS: Readonly<Record<RateLimitBucket, readonly RateLimitWindow[]>> = {
  serpCheck: [{ limit: rateLimits.serpCheck.perMinute, windowSeconds: rateLimits.serpCheck.windowSeconds }],
  trafficCheck: [{ limit: rateLimits.trafficCheck.perMinute, windowSeconds: rateLimits.trafficCheck.windowSeconds }],
  keywordResearch: [
    { limit: rateLimits.keywordResearch.perMinute, windowSeconds: 60 },
    { limit: rateLimits.keywordResearch.perHour, windowSeconds: 3600 },
  ],
  domainReads: [
    { limit: rateLimits.domainReads.perMinute, windowSeconds: 60 },
    { limit: rateLimits.domainReads.perHour, windowSeconds: 3600 },
  ],
};

/**
 * A call let through, with what is left of the tightest window; or refused, with the window that
 * is full and the whole seconds until it has room again (at least 1).
 */
export type RateLimitDecision =
  { allowed: true; remaining: number } | { allowed: false; retryAfter: number; limit: number; window: number };

/**
 * The port. Counters are per (bucket, account), so every key of an account draws on one bucket;
 * the Redis adapter shares them across api replicas, the in-process one serves a standalone run.
 */
export interface RateLimiter {
  /** Takes one call from the bucket, or refuses without taking anything. */
  consume(bucket: RateLimitBucket, accountId: string): Promise<RateLimitDecision>;
  /** What is left of the tightest window, without taking a call. */
  remaining(bucket: RateLimitBucket, accountId: string): Promise<number>;
  close(): Promise<void>;
}

export const RATE_LIMITER = Symbol('RATE_LIMITER');
