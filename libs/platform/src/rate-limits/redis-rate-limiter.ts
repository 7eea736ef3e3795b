import { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis } from 'rate-limiter-flexible';
import { FlexibleRateLimiter, rateLimitKeyPrefix } from './flexible-rate-limiter';

export interface RedisRateLimiterOptions {
  /** REDIS_URL: redis:// or rediss://, with a password in it when the server wants one. */
  url: string;
  /** Told when the connection drops or comes back; never given the URL, which may hold a password. */
  onConnectionChange?: (state: 'lost' | 'ready', reason?: string) => void;
}

/**
 * Counters in Redis (or Valkey), shared by every api replica. While Redis cannot be reached each
 * replica counts in its own memory (rate-limiter-flexible's insurance limiter), so calls keep being
 * limited, per replica, instead of failing or passing unlimited.
 */
export async function openRedisRateLimiter(options: RedisRateLimiterOptions): Promise<FlexibleRateLimiter> {
  // No offline queue: a call made while disconnected fails at once and goes to the in-memory counter
  // instead of waiting for a reconnect (the library's advice for ioredis).
  const client = new Redis(options.url, { enableOfflineQueue: false, maxRetriesPerRequest: 1, connectTimeout: 5_000 });
  let lost = false;
  client.on('error', (error: Error) => {
    if (lost) return;
    lost = true;
    options.onConnectionChange?.('lost', error.message);
  });
  client.on('ready', () => {
    if (!lost) return;
    lost = false;
    options.onConnectionChange?.('ready');
  });
  // Calls made before the first connection would all go to the in-memory counter: wait for it (or
  // for the first failure, after which the insurance counter serves until Redis is back).
  await new Promise<void>((resolve) => {
    const settle = () => {
      client.off('ready', settle);
      client.off('error', settle);
      resolve();
    };
    client.once('ready', settle);
    client.once('error', settle);
  });
  return new FlexibleRateLimiter(
    (bucket, window) =>
      new RateLimiterRedis({
        storeClient: client,
        keyPrefix: rateLimitKeyPrefix(bucket, window),
        points: window.limit,
        duration: window.windowSeconds,
        rejectIfRedisNotReady: true,
        insuranceLimiter: new RateLimiterMemory({
          keyPrefix: `${rateLimitKeyPrefix(bucket, window)}:insurance`,
          points: window.limit,
          duration: window.windowSeconds,
        }),
      }),
    async () => {
      client.removeAllListeners('error');
      client.on('error', () => {});
      await client.quit().catch(() => client.disconnect());
    },
  );
}
