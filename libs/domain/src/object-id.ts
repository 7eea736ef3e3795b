import { randomBytes } from 'node:crypto';

/** Every id in the API is a 24-character lowercase hex object-id: 4 bytes of seconds, 8 random bytes. */
export function newObjectId(now: Date = new Date()): string {
  const seconds = Math.floor(now.getTime() / 1000)
    .toString(16)
    .padStart(8, '0');
  return seconds + randomBytes(8).toString('hex');
}

export function isObjectId(value: unknown): value is string {
  return typeof value === 'string' && /^[0-9a-f]{24}$/.test(value);
}
