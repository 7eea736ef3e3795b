import { UpstreamError } from './upstream-error';
import { isTransient, withRetry } from './retry';

const http = (status: number) => new UpstreamError('p', 'http', `answered ${status}`, status);

describe('withRetry', () => {
  it('retries transient failures up to the number of tries, then throws the last', async () => {
    let calls = 0;
    await expect(
      withRetry({ attempts: 3, baseDelayMs: 1, timeoutMs: 100 }, async () => {
        calls++;
        throw http(503);
      }),
    ).rejects.toThrow('answered 503');
    expect(calls).toBe(3);
  });

  it('does not retry a 4xx or a malformed answer', async () => {
    for (const error of [http(400), new UpstreamError('p', 'malformed', 'bad')]) {
      let calls = 0;
      await expect(
        withRetry({ attempts: 3, baseDelayMs: 1, timeoutMs: 100 }, async () => {
          calls++;
          throw error;
        }),
      ).rejects.toBe(error);
      expect(calls).toBe(1);
    }
  });

  it('gives each try what is left of the budget as its timeout, and starts no retry that would have almost no time', async () => {
    const timeouts: number[] = [];
    const started = Date.now();
    await expect(
      withRetry({ attempts: 10, baseDelayMs: 1, timeoutMs: 1_000, budgetMs: 1_500 }, async (timeoutMs) => {
        timeouts.push(timeoutMs);
        await new Promise((resolve) => setTimeout(resolve, Math.min(timeoutMs, 1_000)));
        throw new UpstreamError('p', 'timeout', 'slow');
      }),
    ).rejects.toThrow('slow');
    expect(timeouts[0]).toBe(1_000);
    expect(timeouts.length).toBeLessThan(10);
    expect(Date.now() - started).toBeLessThan(2_500);
  });

  it('counts timeouts, resets, 5xx and 429 as transient', () => {
    expect(isTransient(new UpstreamError('p', 'timeout', 'x'))).toBe(true);
    expect(isTransient(new UpstreamError('p', 'unreachable', 'x'))).toBe(true);
    expect(isTransient(http(502))).toBe(true);
    expect(isTransient(http(429))).toBe(true);
    expect(isTransient(http(404))).toBe(false);
    expect(isTransient(new Error('bug'))).toBe(false);
  });
  it('starts no retry once the signal has aborted, and ends its pause before the retry at once', async () => {
    const cancel = new AbortController();
    let calls = 0;
    const started = Date.now();
    const call = withRetry(
      { attempts: 5, baseDelayMs: 10_000, timeoutMs: 100 },
      async () => {
        calls++;
        if (calls === 1) setTimeout(() => cancel.abort(), 20);
        throw http(503);
      },
      cancel.signal,
    );
    await expect(call).rejects.toThrow('answered 503');
    expect(calls).toBe(1);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('does not try again when the signal was aborted before the first failure', async () => {
    const cancel = new AbortController();
    cancel.abort();
    let calls = 0;
    await expect(
      withRetry(
        { attempts: 3, baseDelayMs: 1, timeoutMs: 100 },
        async () => {
          calls++;
          throw http(503);
        },
        cancel.signal,
      ),
    ).rejects.toThrow('answered 503');
    expect(calls).toBe(1);
  });
});
