import { createHash } from 'node:crypto';

/**
 * A stable UUID (version 5 layout, SHA-256 based) for a name. Used as the event id of things that may
 * be attempted twice (a check's result, a refund, a scheduled slot), so that the second append is a
 * no-op in the event store.
 */
export function uuidFromName(name: string): string {
  const h = createHash('sha256').update(name).digest('hex');
  const variant = ((parseInt(h[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}
