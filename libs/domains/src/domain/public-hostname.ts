/**
 * Whether a normalised domain names a site on the public internet: at least two labels and a
 * top-level label that is letters (or an IDN's `xn--`), and not one of the names reserved for
 * private networks. Domain data is fetched by our own Lighthouse too, so an IP address, `localhost`
 * or an intranet name would make the service load pages of its own network (SSRF); those are refused.
 */
// `.example`, `.test` and `.invalid` never resolve, so they are no risk (and tests use them).
const PRIVATE_TOP_LEVEL = new Set(['localhost', 'localdomain', 'local', 'internal', 'intranet', 'lan', 'home', 'corp', 'private', 'arpa']);

export function isPublicHostname(domain: string): boolean {
  const labels = domain.split('.');
  const top = labels[labels.length - 1] ?? '';
  return (
    labels.length >= 2 &&
    labels.every((l) => l.length > 0 && l.length <= 63) &&
    /^(xn--[a-z0-9-]+|[a-z]{2,63})$/.test(top) &&
    !PRIVATE_TOP_LEVEL.has(top)
  );
}
