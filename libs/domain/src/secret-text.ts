/** What stands in a text for a secret cut out of it. */
export const SECRET_MARK = '[secret]';

/**
 * A text from outside (an error body, a URL) without the given secrets, for failure reasons, events
 * and logs: a provider may quote the request back ("Incorrect API key provided: …", its request line,
 * its Authorization header). Each secret goes in every form it travels or comes back in: as written,
 * URL-encoded (`encodeURIComponent`, and a query's or form's encoding, which also escapes `'()!~` and
 * writes a space as `+`), and as a JSON string writes it (`"` and `\` escaped), since a body quoting
 * it is cut before it is parsed. Values under 8 characters are left alone: they would cut ordinary
 * words out of the text (a whole answer is cut, results and all) and are no secret worth the name.
 */
export function withoutSecrets(text: string, secrets: readonly (string | undefined)[]): string {
  const forms = secrets
    .filter((secret): secret is string => secret !== undefined && secret.length >= 8)
    .flatMap((secret) => {
      const inQuery = new URLSearchParams({ s: secret }).toString().slice(2);
      const inJson = JSON.stringify(secret).slice(1, -1);
      return [secret, encodeURIComponent(secret), inQuery, inJson, JSON.stringify(inQuery).slice(1, -1)];
    })
    // Longest first, so that a secret containing another goes whole.
    .sort((a, b) => b.length - a.length);
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
  const scheme = /^[A-Za-z][A-Za-z0-9+.-]*:\/\//.exec(url)?.[0] ?? '';
  return `${scheme}***${url.slice(at)}`;
}
