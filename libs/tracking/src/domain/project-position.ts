import { isSameSiteOrSubdomain } from '@rank/domain/domain-name';
import type { ProjectPosition, RankedResult } from './check.events';

/**
 * The project's position in a result list: its best (first) organic result whose host is the
 * project's domain, an alias, or a subdomain of either; position 0 when none is within the depth.
 */
export function projectPosition(results: readonly RankedResult[], ownDomains: readonly string[]): ProjectPosition {
  const hit = results.find((r) => ownDomains.some((d) => isSameSiteOrSubdomain(r.domain, d)));
  return hit ? { ...hit } : { position: 0, url: '', title: '', domain: '' };
}

/** A check's id: 24 hex characters, the work order's time first (so ids sort by time), then a hash. */
export function checkIdFor(batchId: string, keywordId: string, requestedAt: Date, hash: (s: string) => string): string {
  const seconds = Math.floor(requestedAt.getTime() / 1000)
    .toString(16)
    .padStart(8, '0');
  return seconds + hash(`${batchId}:${keywordId}`).slice(0, 16);
}
