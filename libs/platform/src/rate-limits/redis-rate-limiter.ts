import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { InProcessRateLimiter, Now, refused } from './in-process-rate-limiter';
import { RATE_LIMIT_WINDOWS, RateLimitBucket, RateLimitDecision, RateLimiter, RateLimitWindow } from './rate-limiter';

export interface RedisRateLimiterOptions {
  /** REDIS_URL: redis:// or rediss://, with a password in it when the server wants one. */
  url: string;
  /** Told when the connection drops or comes back; never given the URL, which may hold a password. */
  onConnectionChange?: (state: 'lost' | 'ready', reason?: string) => void;
  /** Milliseconds since the epoch; a test passes its own. Replicas' clocks are assumed in step to well under a second. */
  now?: Now;
}

/**
 * One call against every window of a bucket, atomically (a script runs alone on the server): each
 * window is a sorted set of the calls it let through, scored by time. Calls that left a window are
 * dropped; if any window is full, nothing is written and the wait until it has room is returned;
 * else the call is written in every window. KEYS: the windows' sets. ARGV: now (ms), the call's
 * member, then limit and window (ms) of each key. Returns {1, remaining} or {0, waitMs, key index}.
 */
const CONSUME = `
local now = tonumber(ARGV[1])
local wait, full, remaining = -1, 0, -1
for i, key in ipairs(KEYS) do
  local limit, span = tonumber(ARGV[1 + 2 * i]), tonumber(ARGV[2 + 2 * i])
  redis.call('ZREMRANGEBYSCORE', key, '-inf', now - span)
  local count = redis.call('ZCARD', key)
  if count >= limit then
    local filling = redis.call('ZRANGE', key, count - limit, count - limit, 'WITHSCORES')
    local w = tonumber(filling[2]) + span - now
    if w > wait then wait, full = w, i end
  elseif remaining < 0 or limit - count - 1 < remaining then
    remaining = limit - count - 1
  end
end
if full > 0 then return {0, wait, full} end
for i, key in ipairs(KEYS) do
  redis.call('ZADD', key, now, ARGV[2])
  redis.call('PEXPIRE', key, tonumber(ARGV[2 + 2 * i]))
end
return {1, remaining}
`;

/** Calls in each window's set now, without taking one. KEYS: the sets; ARGV: now, then each window (ms). */
const COUNT = `
local counts = {}
for i, key in ipairs(KEYS) do
  counts[i] = redis.call('ZCOUNT', key, '(' .. (tonumber(ARGV[1]) - tonumber(ARGV[1 + i])), '+inf')
end
return counts
`;

/** The set of one window of one bucket of one account (`rate-log:`, apart from the fixed counters of older versions). */
const windowKey = (bucket: RateLimitBucket, window: RateLimitWindow, accountId: string) =>
  `rate-log:${bucket}:${window.windowSeconds}s:${accountId}`;

/**
 * Sliding windows in Redis (or Valkey), shared by every api replica, as the in-process limiter
 * keeps them. While Redis cannot be reached each replica counts in its own memory, so calls keep
 * being limited, per replica, instead of failing or passing unlimited.
 */
export class RedisRateLimiter implements RateLimiter {
  private readonly alone: InProcessRateLimiter;

  constructor(
    private readonly client: Redis,
    private readonly now: Now = Date.now,
  ) {
    this.alone = new InProcessRateLimiter(now);
  }

  async consume(bucket: RateLimitBucket, accountId: string): Promise<RateLimitDecision> {
    const windows = RATE_LIMIT_WINDOWS[bucket];
    const keys = windows.map((w) => windowKey(bucket, w, accountId));
    const spans = windows.map((w) => [w.limit, w.windowSeconds * 1000]).flat();
    return this.shared(
      async () => {
        const answer = (await this.client.eval(CONSUME, keys.length, ...keys, this.now(), randomUUID(), ...spans)) as number[];
        return answer[0] === 1 ? { allowed: true, remaining: answer[1]! } : refused(windows[answer[2]! - 1]!, answer[1]!);
      },
      () => this.alone.consume(bucket, accountId),
    );
  }

  async remaining(bucket: RateLimitBucket, accountId: string): Promise<number> {
    const windows = RATE_LIMIT_WINDOWS[bucket];
    const keys = windows.map((w) => windowKey(bucket, w, accountId));
    return this.shared(
      async () => {
        const counts = (await this.client.eval(
          COUNT,
          keys.length,
          ...keys,
          this.now(),
          ...windows.map((w) => w.windowSeconds * 1000),
        )) as number[];
        return Math.max(0, Math.min(...windows.map((w, i) => w.limit - counts[i]!)));
      },
      () => this.alone.remaining(bucket, accountId),
    );
  }

  /**
   * Asks Redis; while it cannot be reached, counts in memory. Only Redis' own answer of an error
   * (a ReplyError: the script's) is thrown. A server that has just stopped can fail a call before the
   * client's status says so ("Stream isn't writeable"): that failure was thrown, a 500, in a CI run.
   */
  private async shared<T>(inRedis: () => Promise<T>, inMemory: () => Promise<T>): Promise<T> {
    if (this.client.status !== 'ready') return inMemory();
    try {
      return await inRedis();
    } catch (error) {
      if ((error as { name?: unknown } | null)?.name === 'ReplyError') throw error;
      return inMemory();
    }
  }

  async close(): Promise<void> {
    await this.alone.close();
    this.client.removeAllListeners('error');
    this.client.removeAllListeners('close');
    this.client.on('error', () => {});
    await this.client.quit().catch(() => this.client.disconnect());
  }
}

export async function openRedisRateLimiter(options: RedisRateLimiterOptions): Promise<RedisRateLimiter> {
  // No offline queue: a call made while disconnected fails at once and is counted in memory instead
  // of waiting for a reconnect.
  const client = new Redis(options.url, { enableOfflineQueue: false, maxRetriesPerRequest: 1, connectTimeout: 5_000 });
  let lost = false;
  const lose = (reason: string) => {
    if (lost) return;
    lost = true;
    options.onConnectionChange?.('lost', reason);
  };
  client.on('error', (error: Error) => lose(error.message));
  // A server that stops closes the connection before any error: calls are counted in memory from then.
  client.on('close', () => lose('connection closed'));
  client.on('ready', () => {
    if (!lost) return;
    lost = false;
    options.onConnectionChange?.('ready');
  });
  // Calls made before the first connection would all be counted in memory: wait for it (or for the
  // first failure, after which memory serves until Redis is back).
  await new Promise<void>((resolve) => {
    const settle = () => {
      client.off('ready', settle);
      client.off('error', settle);
      resolve();
    };
    client.once('ready', settle);
    client.once('error', settle);
  });
  return new RedisRateLimiter(client, options.now);
}
