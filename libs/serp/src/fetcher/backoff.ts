/**
 * Wait before retry number `retry` (1 for the first retry): exponential, capped, with "equal
 * jitter" — half the delay is fixed, half random — so retries from many workers spread out but
 * never fire back-to-back.
 */
export function retryDelayMs(retry: number, baseDelayMs: number, maxDelayMs: number, random: () => number = Math.random): number {
  const exponential = Math.min(maxDelayMs, baseDelayMs * 2 ** Math.max(0, retry - 1));
  return Math.round(exponential / 2 + random() * (exponential / 2));
}
