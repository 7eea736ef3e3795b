import { HttpException, HttpStatus, Inject, Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { RATE_LIMIT_WINDOWS, RATE_LIMITER, RateLimitBucket, RateLimiter } from './rate-limiter';

const WHAT_IS_LIMITED: Record<RateLimitBucket, string> = {
  serpCheck: 'serp-check',
  keywordResearch: 'keyword-research and keyword-ideas',
  trafficCheck: 'traffic-check',
  domainReads: 'domain data',
};

/**
 * The HTTP side of the limits: a refused call becomes a 429 whose body has `retryAfter` (seconds),
 * `limit` and `window` (seconds), and the exception filter turns `retryAfter` into the
 * `Retry-After` header. Take the call before doing the work it pays for.
 */
@Injectable()
export class RateLimits implements OnModuleDestroy {
  private readonly logger = new Logger('RateLimits');

  constructor(@Inject(RATE_LIMITER) private readonly limiter: RateLimiter) {}

  /** Takes one call from the account's bucket and says what is left, or throws the 429. */
  async take(bucket: RateLimitBucket, accountId: string): Promise<{ remaining: number }> {
    const decision = await this.limiter.consume(bucket, accountId);
    if (decision.allowed) return { remaining: decision.remaining };
    throw new HttpException(
      {
        success: false,
        message: `Rate limit reached: ${decision.limit} ${WHAT_IS_LIMITED[bucket]} requests per ${decision.window} seconds for this account; try again in ${decision.retryAfter} seconds`,
        retryAfter: decision.retryAfter,
        limit: decision.limit,
        window: decision.window,
      },
      HttpStatus.TOO_MANY_REQUESTS,
    );
  }

  /** What is left of the account's bucket now, for the capacity record; a store that cannot answer shows the full limit. */
  async remaining(bucket: RateLimitBucket, accountId: string): Promise<number> {
    try {
      return await this.limiter.remaining(bucket, accountId);
    } catch (error) {
      this.logger.warn(`Could not read the ${bucket} counter: ${(error as Error).message}`);
      return Math.min(...RATE_LIMIT_WINDOWS[bucket].map((w) => w.limit));
    }
  }

  async onModuleDestroy(): Promise<void> {
    await this.limiter.close();
  }
}
