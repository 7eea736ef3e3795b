import { domainToASCII } from 'node:url';

/**
 * One domain, one spelling: lowercase, no scheme, no `www.`, no path, query, port or credentials,
 * IDN in punycode. `Example.COM/`, `https://www.example.com/path` and `example.com` are one domain.
 * Returns null when nothing that looks like a host name is left, or when it is longer than DNS allows
 * (a label over 63 characters, a name over 253): no such host exists, and callers store what this returns.
 */
export function normaliseDomain(input: string): string | null {
  let text = input.trim().toLowerCase();
  if (text === '') return null;
  text = text.replace(/^[a-z][a-z0-9+.-]*:\/\//, '').replace(/^\/\//, '');
  text = text.split(/[/?#\\]/, 1)[0] ?? '';
  text = text.slice(text.lastIndexOf('@') + 1);
  text = text.replace(/:\d*$/, '').replace(/\.$/, '');
  const ascii = domainToASCII(text);
  if (ascii === '' || ascii.length > 253 || !/^[a-z0-9-]{1,63}(\.[a-z0-9-]{1,63})*$/.test(ascii)) return null;
  return ascii.replace(/^www\./, '');
}

/** The normalised host of a URL (`https://www.Example.com/a` gives `example.com`), or null. */
export function domainOfUrl(url: string): string | null {
  try {
    return normaliseDomain(new URL(url).hostname);
  } catch {
    return null;
  }
}

/** True when `host` is `domain` itself or one of its subdomains (both already normalised). */
export function isSameSiteOrSubdomain(host: string, domain: string): boolean {
  return host === domain || host.endsWith(`.${domain}`);
}
