import { isPublicHostname } from './public-hostname';

describe('isPublicHostname', () => {
  it('accepts public sites, IDNs in punycode and the never-resolving example names', () => {
    for (const domain of ['example.com', 'shop.co.uk', 'xn--mnchen-3ya.de', 'brand.example', 'site.dev', 'xn--80aswg.xn--p1ai'])
      expect(isPublicHostname(domain)).toBe(true);
  });

  it('refuses IP addresses, single labels and private-network names', () => {
    for (const domain of [
      'localhost',
      '127.0.0.1',
      '10.0.0.5',
      'router',
      'printer.local',
      'intranet.corp',
      'db.internal',
      '1.0.0.127.in-addr.arpa',
      'printer.home.arpa',
      // Names only a private network resolves, under labels that are no top-level domain.
      'kubernetes.default.svc',
      'vault.service.consul',
      'nas.lan',
      'gitlab.intranet',
    ]) {
      expect(isPublicHostname(domain)).toBe(false);
    }
  });
});
