import { createHash, timingSafeEqual } from 'node:crypto';

/** What a refused `GET /metrics` answers, in every process that serves it. */
export const METRICS_TOKEN_REFUSED = 'Missing or wrong metrics token: send Authorization: Bearer <METRICS_TOKEN>';

/**
 * Whether an `Authorization` header may read the metrics: always without METRICS_TOKEN, else only
 * with `Bearer <METRICS_TOKEN>`. Compared as hashes, in constant time: the length of a wrong guess
 * tells nothing.
 */
export function acceptsMetricsToken(token: string | undefined, authorization: string | undefined): boolean {
  if (token === undefined) return true;
  const sent = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '')?.[1] ?? '';
  const digest = (s: string) => createHash('sha256').update(s).digest();
  return timingSafeEqual(digest(sent), digest(token));
}
