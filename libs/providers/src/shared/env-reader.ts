import { withoutUserinfo } from '@rank/domain/secret-text';

export type Env = Readonly<Record<string, string | undefined>>;

/**
 * Reads variables the way every configuration here does: trimmed, and empty means unset; a base URL
 * must be http(s) and loses its trailing slashes. What is wrong goes to `problems`, naming the
 * variable, so that a start can list every mistake at once.
 */
export function envReader(env: Env) {
  const problems: string[] = [];
  const get = (name: string): string | undefined => {
    const value = env[name]?.trim();
    return value === undefined || value === '' ? undefined : value;
  };
  /** The variable's URL; `fallback` when it is unset, or when it is not an http(s) URL (a problem then). */
  const httpUrl = <F extends string | undefined>(name: string, fallback: F): string | F => {
    const raw = get(name);
    if (raw === undefined) return fallback;
    try {
      const url = new URL(raw);
      if (!['http:', 'https:'].includes(url.protocol)) throw new Error('scheme');
      decodedUserinfo(url);
      return raw.replace(/\/+$/, '');
    } catch {
      problems.push(`${name} must be an http(s) URL (got "${withoutUserinfo(raw)}")`);
      return fallback;
    }
  };
  return { problems, get, httpUrl };
}

/**
 * Decodes a URL's user and password as the clients do (`decodeURIComponent`), throwing for an escape
 * that does not decode (`pass%word`): `new URL` keeps it, and the client's URIError would stop the
 * start with a stack trace that names no variable.
 */
export function decodedUserinfo(url: URL): void {
  decodeURIComponent(url.username);
  decodeURIComponent(url.password);
}
