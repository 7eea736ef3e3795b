import { domainToASCII } from 'node:url';
import IANA_TOP_LEVEL_DOMAINS from 'tlds';

/**
 * The top-level labels of the public internet: IANA's root zone (the `tlds` package, pinned; IDN
 * labels in their `xn--` form) but `.arpa`, which holds reverse-lookup and private names
 * (`home.arpa`), and the names reserved never to resolve (`.example`, `.test`, `.invalid`: no risk,
 * and tests use them). Anything else is a private network's: `.local`, `.internal`, `.corp`,
 * Kubernetes' `.svc`, Consul's `.consul`, …
 */
const PUBLIC_TOP_LEVEL = new Set([
  ...IANA_TOP_LEVEL_DOMAINS.map((label) => domainToASCII(label) || label).filter((label) => label !== 'arpa'),
  'example',
  'test',
  'invalid',
]);

/**
 * Whether a normalised domain names a site on the public internet: at least two labels under a
 * top-level label of the root zone. Domain data is fetched by our own Lighthouse too, so an IP
 * address, `localhost` or an intranet name would make the service load pages of its own network
 * (SSRF); those are refused. A top-level label added to the root zone after the pinned list is
 * refused until the list is updated.
 */
export function isPublicHostname(domain: string): boolean {
  const labels = domain.split('.');
  const top = labels[labels.length - 1] ?? '';
  return labels.length >= 2 && labels.every((l) => l.length > 0 && l.length <= 63) && PUBLIC_TOP_LEVEL.has(top);
}
