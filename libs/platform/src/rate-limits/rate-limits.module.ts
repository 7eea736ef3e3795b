import { Logger, Module } from '@nestjs/common';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../tokens';
import { InProcessRateLimiter } from './in-process-rate-limiter';
import { RATE_LIMITER, RateLimiter } from './rate-limiter';
import { RateLimits } from './rate-limits';
import { openRedisRateLimiter } from './redis-rate-limiter';

/** REDIS_URL set: counters in Redis, shared by every replica; unset: counters in this process. */
export async function rateLimiterFor(config: Pick<AppConfig, 'redisUrl'>, logger = new Logger('RateLimits')): Promise<RateLimiter> {
  if (config.redisUrl === undefined) return new InProcessRateLimiter();
  return openRedisRateLimiter({
    url: config.redisUrl,
    onConnectionChange: (state, reason) =>
      state === 'lost'
        ? logger.warn(
            `Redis (REDIS_URL) cannot be reached (${reason ?? 'no reason given'}); each replica counts rate limits on its own until it is back`,
          )
        : logger.log('Redis (REDIS_URL) reachable again; rate limits are shared across replicas'),
  });
}

/**
 * Import it into every HTTP module that limits calls; Nest keeps one instance, so all of them
 * draw on the same counters (and one Redis connection).
 */
@Module({
  providers: [{ provide: RATE_LIMITER, inject: [APP_CONFIG], useFactory: (config: AppConfig) => rateLimiterFor(config) }, RateLimits],
  exports: [RateLimits],
})
export class RateLimitsModule {}
