/** What stands in a text for a secret cut out of it. */
export const SECRET_MARK = '[secret]';

/**
 * A text from outside (an error body, a URL) without the given secrets, for failure reasons, events
 * and logs: a provider may quote the request back ("Incorrect API key provided: …", its request line,
 * its Authorization header). Each secret goes in every form it travels or comes back in: as written,
 * URL-encoded (`encodeURIComponent` with upper- or lowercase hex, `encodeURI`, and a query's or
 * form's encoding, which also escapes `'()!~` and writes a space as `+`), and as a JSON string quotes
 * it (`"` and `\` escaped). A JSON body may escape it further (`\/`, `\u00e9`): withoutSecretsIn cuts
 * the parsed values too. Values under 8 characters are left alone: they would cut ordinary words out
 * of the text (a whole answer is cut, results and all) and are no secret worth the name.
 */
export function withoutSecrets(text: string, secrets: readonly (string | undefined)[]): string {
  return cutForms(text, formsOf(secrets));
}

/**
 * A parsed JSON answer with every secret cut out of its strings (keys included), in place: what a
 * JSON encoder escaped in the raw text (`\/` for `/`, `\uXXXX` for non-ASCII or `& < >`) is plain
 * text once parsed, and messages are built from the parsed values. Walked without recursion, so no
 * nesting depth can overflow the stack. See also parsedWithoutSecrets, which skips the walk when it
 * cannot find anything.
 */
export function withoutSecretsIn<T>(value: T, secrets: readonly (string | undefined)[]): T {
  const forms = formsOf(secrets);
  if (forms.length === 0) return value;
  if (typeof value === 'string') return cutForms(value, forms) as T;
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const current = pending.pop();
    if (typeof current !== 'object' || current === null) continue;
    const record = current as Record<string, unknown>;
    for (const key of Object.keys(record)) {
      const inner = record[key];
      const cutKey = Array.isArray(record) ? key : cutForms(key, forms);
      const cutInner = typeof inner === 'string' ? cutForms(inner, forms) : inner;
      if (cutKey !== key) delete record[key];
      record[cutKey] = cutInner;
      if (typeof inner === 'object' && inner !== null) pending.push(inner);
    }
  }
  return value;
}

/**
 * A JSON text, already cut with withoutSecrets, parsed with the secrets cut out of its values too.
 * A JSON string differs from its raw text only through escapes, which need a backslash: without one
 * in the text there is nothing left to find, and the walk (about 100 ms for a 3 MB answer) is skipped.
 */
export function parsedWithoutSecrets(cutText: string, secrets: readonly (string | undefined)[]): unknown {
  const parsed = JSON.parse(cutText) as unknown;
  return cutText.includes('\\') ? withoutSecretsIn(parsed, secrets) : parsed;
}

/**
 * An answer's text without the given secrets, also where a JSON encoder escaped them (`\/`,
 * `\uXXXX`): a text that parses as JSON is cut again as parsed values and written back. For an
 * answer that is quoted as text (an excerpt in a failure reason) rather than parsed.
 */
export function withoutSecretsInAnswer(text: string, secrets: readonly (string | undefined)[]): string {
  const cut = withoutSecrets(text, secrets);
  if (!cut.includes('\\')) return cut;
  try {
    return JSON.stringify(withoutSecretsIn(JSON.parse(cut) as unknown, secrets));
  } catch {
    return cut;
  }
}

/** The forms of each secret worth cutting, longest first, so that a secret containing another goes whole. */
function formsOf(secrets: readonly (string | undefined)[]): string[] {
  const forms = secrets
    .filter((secret): secret is string => secret !== undefined && secret.length >= 8)
    .flatMap((secret) => {
      const component = encodeURIComponent(secret);
      const inQuery = new URLSearchParams({ s: secret }).toString().slice(2);
      const inJson = (text: string) => JSON.stringify(text).slice(1, -1);
      return [
        secret,
        component,
        component.replace(/%[0-9A-F]{2}/g, (escape) => escape.toLowerCase()),
        encodeURI(secret),
        inQuery,
        inJson(secret),
        inJson(inQuery),
      ];
    });
  return [...new Set(forms)].sort((a, b) => b.length - a.length);
}

function cutForms(text: string, forms: readonly string[]): string {
  let result = text;
  for (const form of forms) if (result.includes(form)) result = result.split(form).join(SECRET_MARK);
  return result;
}

/**
 * A URL or connection string as a message may show it: everything between its scheme's `//` and its
 * last `@` (a user and password, even one a URL parser would refuse, with spaces or `//` in it)
 * becomes `***`; written without a scheme (`user:password@host:8123`), everything before its last
 * `@`. An `@` further on (in a path) masks more than the password, never less.
 */
export function withoutUserinfo(url: string): string {
  const at = url.lastIndexOf('@');
  if (at < 0) return url;
  return `${schemeOf(url)}***${url.slice(at)}`;
}

/**
 * The user and password withoutUserinfo masks, and the password alone (after the first `:`), for
 * cutting them out of a text that quotes them elsewhere; none without an `@`.
 */
export function credentialsOf(url: string): string[] {
  const at = url.lastIndexOf('@');
  if (at < 0) return [];
  const userinfo = url.slice(schemeOf(url).length, at);
  const colon = userinfo.indexOf(':');
  return colon < 0 ? [userinfo] : [userinfo, userinfo.slice(colon + 1)];
}

const schemeOf = (url: string) => /^[A-Za-z][A-Za-z0-9+.-]*:\/\//.exec(url)?.[0] ?? '';
