/** Socket errors of a server that cannot be reached: refused, reset, no route, a name not resolved, timed out. */
export const UNREACHABLE_CODES: ReadonlySet<string> = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ECONNRESET',
]);

/** EventStoreDB's client says a server it cannot reach (or that did not answer in time) with these error types. */
const EVENT_STORE_UNREACHABLE_TYPES: ReadonlySet<string> = new Set(['unavailable', 'deadline-exceeded']);

/**
 * Which store server an error of a request says cannot be reached now, or undefined. Read by shape
 * (a client's errors may come from another realm). EventStoreDB's client types its errors; ClickHouse's
 * client throws the socket's error as it is. Provider calls wrap theirs in UpstreamError and the
 * Redis rate limiter counts in memory instead; the request's own socket failing (a client hanging up
 * mid-body: ECONNRESET) is a Fastify client error with a 4xx `statusCode`, which is not taken here.
 */
export function unreachableStoreOf(error: unknown): 'event store' | 'read store' | undefined {
  const { type, code, statusCode } = (error ?? {}) as { type?: unknown; code?: unknown; statusCode?: unknown };
  if (typeof type === 'string' && EVENT_STORE_UNREACHABLE_TYPES.has(type)) return 'event store';
  if (typeof code === 'string' && UNREACHABLE_CODES.has(code) && statusCode === undefined) return 'read store';
  return undefined;
}
