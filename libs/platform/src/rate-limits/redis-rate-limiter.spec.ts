import type { Redis } from 'ioredis';
import { RedisRateLimiter } from './redis-rate-limiter';

/** A client whose status still says ready while its calls fail as the given error does. */
const clientFailingWith = (error: Error) => ({ status: 'ready', eval: () => Promise.reject(error) }) as unknown as Redis;

describe('RedisRateLimiter, a call that fails', () => {
  it("counts in memory when the connection failed before the client's status said so", async () => {
    // The race a CI run met: Redis had stopped, the client was still 'ready', the call failed.
    const limiter = new RedisRateLimiter(clientFailingWith(new Error("Stream isn't writeable and enableOfflineQueue options is false")));
    const decisions = [];
    for (let i = 0; i < 11; i++) decisions.push((await limiter.consume('serpCheck', 'acc-1')).allowed);
    expect(decisions).toEqual([...Array(10).fill(true), false]);
  });

  it("throws Redis' own error of the script", async () => {
    const scriptError = Object.assign(new Error('ERR Error running script'), { name: 'ReplyError' });
    await expect(new RedisRateLimiter(clientFailingWith(scriptError)).consume('serpCheck', 'acc-1')).rejects.toBe(scriptError);
  });
});
