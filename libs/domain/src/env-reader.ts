import { withoutUserinfo } from './secret-text';

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
  /**
   * The variable's URL; `fallback` when it is unset, or when it is not an http(s) URL (a problem
   * then). A user and password in it are a problem too, unless `credentials` says the client takes
   * them (ClickHouse's): Node's fetch refuses such a URL, and its error would quote the password.
   */
  const httpUrl = <F extends string | undefined>(name: string, fallback: F, options: { credentials?: boolean } = {}): string | F => {
    const raw = get(name);
    if (raw === undefined) return fallback;
    let url: URL;
    try {
      url = new URL(raw);
      if (!['http:', 'https:'].includes(url.protocol)) throw new Error('scheme');
      decodedUserinfo(url);
    } catch {
      problems.push(notAnHttpUrl(name, raw));
      return fallback;
    }
    if ((url.username || url.password) && !options.credentials) {
      problems.push(urlWithCredentials(name, raw));
      return fallback;
    }
    return raw.replace(/\/+$/, '');
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

/** One wording wherever a URL variable is read, so that one two parts read (DATAFORSEO_BASE_URL) is refused once. */
const notAnHttpUrl = (name: string, raw: string) => `${name} must be an http(s) URL (got "${withoutUserinfo(raw)}")`;

/** Node's fetch refuses a URL with a user or password in it, and a failure would quote it whole. */
const urlWithCredentials = (name: string, raw: string) =>
  `${name} must not carry a user or password (got "${withoutUserinfo(raw)}"): a provider's key goes in its own variable`;
