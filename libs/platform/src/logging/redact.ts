/**
 * Field names whose values never reach a log line, whatever object carries them (compared without
 * case, `-` or `_`: `apiKey`, `api_key` and `API-KEY` are one name).
 */
export const REDACTED_FIELDS: readonly string[] = [
  'authorization',
  'apiKey',
  'key',
  'password',
  'token',
  'adminToken',
  'metricsToken',
  'secret',
  'cookie',
  'setCookie',
];

export const REDACTED = '[redacted]';

const normalise = (name: string) => name.replace(/[-_]/g, '').toLowerCase();

/**
 * A copy of a log object with the values of secret-named fields replaced, at any depth. Arrays and
 * plain objects are copied; other values (dates, errors) are kept as they are. Cycles are cut.
 */
export function redact(value: unknown, fields: readonly string[] = REDACTED_FIELDS): unknown {
  const secret = new Set(fields.map(normalise));
  const seen = new WeakSet<object>();
  const walk = (item: unknown, depth: number): unknown => {
    if (item === null || typeof item !== 'object') return item;
    if (seen.has(item) || depth > 16) return '[cut]';
    if (Array.isArray(item)) {
      seen.add(item);
      return item.map((element) => walk(element, depth + 1));
    }
    const prototype = Object.getPrototypeOf(item);
    if (prototype !== Object.prototype && prototype !== null) return item;
    seen.add(item);
    const copy: Record<string, unknown> = {};
    for (const [name, field] of Object.entries(item)) copy[name] = secret.has(normalise(name)) ? REDACTED : walk(field, depth + 1);
    return copy;
  };
  return walk(value, 0);
}
