import { randomUUID } from 'node:crypto';
import { InProcessRateLimiter } from './in-process-rate-limiter';
import { RATE_LIMIT_WINDOWS, RateLimiter } from './rate-limiter';
import { openRedisRateLimiter } from './redis-rate-limiter';
import { LocalRedis, startRedisServer } from './testing/redis-server';

/** One contract, run on every adapter: what a caller of the port may rely on. */
function rateLimiterContract(name: string, open: (now: () => number) => Promise<{ limiter: RateLimiter; close(): Promise<void> }>) {
  describe(`${name} rate limiter`, () => {
    let limiter: RateLimiter;
    let close: () => Promise<void>;
    /** The limiter's clock: real time, plus what a test moves it on by. */
    let ahead = 0;
    beforeAll(async () => {
      ({ limiter, close } = await open(() => Date.now() + ahead));
    });
    afterAll(() => close());
    const account = () => `acc-${randomUUID()}`;

    it('lets 10 serp-checks through in a minute, counting down remaining, and refuses the 11th with the window and the wait', async () => {
      const id = account();
      const remaining: number[] = [];
      for (let i = 0; i < 10; i++) {
        const decision = await limiter.consume('serpCheck', id);
        if (!decision.allowed) throw new Error(`call ${i + 1} refused`);
        remaining.push(decision.remaining);
      }
      expect(remaining).toEqual([9, 8, 7, 6, 5, 4, 3, 2, 1, 0]);
      const refused = await limiter.consume('serpCheck', id);
      expect(refused).toEqual({ allowed: false, retryAfter: expect.any(Number), limit: 10, window: 60 });
      if (refused.allowed) return;
      expect(refused.retryAfter).toBeGreaterThanOrEqual(1);
      expect(refused.retryAfter).toBeLessThanOrEqual(60);
      expect(await limiter.remaining('serpCheck', id)).toBe(0);
    });

    it('keeps each account and each bucket apart', async () => {
      const [a, b] = [account(), account()];
      for (let i = 0; i < 10; i++) await limiter.consume('serpCheck', a);
      expect((await limiter.consume('serpCheck', a)).allowed).toBe(false);
      expect(await limiter.consume('serpCheck', b)).toEqual({ allowed: true, remaining: 9 });
      expect(await limiter.consume('trafficCheck', a)).toEqual({ allowed: true, remaining: 19 });
      expect(await limiter.remaining('keywordResearch', a)).toBe(15);
    });

    it('refused calls take nothing: remaining reads the same after a refusal', async () => {
      const id = account();
      for (let i = 0; i < 15; i++) expect((await limiter.consume('keywordResearch', id)).allowed).toBe(true);
      for (let i = 0; i < 5; i++)
        expect(await limiter.consume('keywordResearch', id)).toMatchObject({ allowed: false, limit: 15, window: 60 });
      expect(await limiter.remaining('keywordResearch', id)).toBe(0);
    });

    it('never lets more than the limit through when calls race', async () => {
      const id = account();
      const decisions = await Promise.all(Array.from({ length: 40 }, () => limiter.consume('serpCheck', id)));
      expect(decisions.filter((d) => d.allowed)).toHaveLength(10);
    });

    it('holds the limit over any 60 s, not per fixed minute: calls at the end of one minute leave no room at the start of the next', async () => {
      // Before: fixed windows opened by the first call let 9 calls at 57 s and 10 more at 60.5 s (19 in 4 s).
      const id = account();
      expect((await limiter.consume('serpCheck', id)).allowed).toBe(true);
      ahead += 57_000;
      for (let i = 0; i < 9; i++) expect((await limiter.consume('serpCheck', id)).allowed).toBe(true);
      ahead += 3_500;
      // At 60.5 s only the first call has left the window: one more passes, the next waits for 57 s + 60 s.
      expect(await limiter.consume('serpCheck', id)).toEqual({ allowed: true, remaining: 0 });
      expect(await limiter.consume('serpCheck', id)).toEqual({ allowed: false, retryAfter: 57, limit: 10, window: 60 });
      ahead += 56_600;
      expect(await limiter.remaining('serpCheck', id)).toBe(9);
      expect(await limiter.consume('serpCheck', id)).toEqual({ allowed: true, remaining: 8 });
    });

    it('names the window that is full, with the longest wait, when a bucket has two', async () => {
      const id = account();
      for (let round = 0; round < 10; round++) {
        for (let i = 0; i < 15; i++) expect((await limiter.consume('keywordResearch', id)).allowed).toBe(true);
        ahead += 60_000;
      }
      // 150 calls over 10 minutes: the minute has room, the hour has none until its first call leaves it.
      expect(await limiter.consume('keywordResearch', id)).toEqual({ allowed: false, retryAfter: 3000, limit: 150, window: 3600 });
      expect(await limiter.remaining('keywordResearch', id)).toBe(0);
    });

    it('reads remaining without taking a call', async () => {
      const id = account();
      expect(await limiter.remaining('domainReads', id)).toBe(60);
      await limiter.consume('domainReads', id);
      expect(await limiter.remaining('domainReads', id)).toBe(59);
      expect(await limiter.remaining('domainReads', id)).toBe(59);
    });

    it('defines the buckets from the spec: serp-check 10/60 s, research 15/min + 150/h, traffic 20/60 s, domain reads 60/min + 600/h', () => {
      expect(RATE_LIMIT_WINDOWS).toEqual({
        serpCheck: [{ limit: 10, windowSeconds: 60 }],
        trafficCheck: [{ limit: 20, windowSeconds: 60 }],
        keywordResearch: [
          { limit: 15, windowSeconds: 60 },
          { limit: 150, windowSeconds: 3600 },
        ],
        domainReads: [
          { limit: 60, windowSeconds: 60 },
          { limit: 600, windowSeconds: 3600 },
        ],
      });
    });
  });
}

rateLimiterContract('in-process', async (now) => {
  const limiter = new InProcessRateLimiter(now);
  return { limiter, close: () => limiter.close() };
});

let redis: LocalRedis;
rateLimiterContract('Redis', async (now) => {
  redis = await startRedisServer();
  const limiter = await openRedisRateLimiter({ url: redis.url, now });
  return {
    limiter,
    close: async () => {
      await limiter.close();
      await redis.stop();
    },
  };
});

describe('Redis rate limiter across processes and outages', () => {
  let server: LocalRedis;
  beforeAll(async () => {
    server = await startRedisServer();
  });
  afterAll(() => server.stop());

  it('two limiters on one Redis (two replicas) share the bucket', async () => {
    const [one, two] = await Promise.all([openRedisRateLimiter({ url: server.url }), openRedisRateLimiter({ url: server.url })]);
    try {
      const id = `acc-${randomUUID()}`;
      const decisions = [];
      for (let i = 0; i < 12; i++) decisions.push(await (i % 2 === 0 ? one : two).consume('serpCheck', id));
      expect(decisions.map((d) => d.allowed)).toEqual([...Array(10).fill(true), false, false]);
    } finally {
      await Promise.all([one.close(), two.close()]);
    }
  });

  it('goes on limiting, in process, when Redis stops under a running limiter', async () => {
    const own = await startRedisServer();
    const states: string[] = [];
    const limiter = await openRedisRateLimiter({ url: own.url, onConnectionChange: (state) => states.push(state) });
    try {
      const id = `acc-${randomUUID()}`;
      for (let i = 0; i < 3; i++) expect(await limiter.consume('serpCheck', id)).toMatchObject({ allowed: true });
      await own.stop();
      const decisions = [];
      for (let i = 0; i < 11; i++) decisions.push((await limiter.consume('serpCheck', id)).allowed);
      expect(decisions).toEqual([...Array(10).fill(true), false]);
      expect(states).toContain('lost');
    } finally {
      await limiter.close();
    }
  });

  it('keeps limiting in process while Redis is down, and says so', async () => {
    const states: string[] = [];
    const limiter = await openRedisRateLimiter({ url: 'redis://127.0.0.1:1', onConnectionChange: (state) => states.push(state) });
    try {
      const id = `acc-${randomUUID()}`;
      const decisions = [];
      for (let i = 0; i < 11; i++) decisions.push(await limiter.consume('serpCheck', id));
      expect(decisions.map((d) => d.allowed)).toEqual([...Array(10).fill(true), false]);
      expect(states).toContain('lost');
    } finally {
      await limiter.close();
    }
  });
});
