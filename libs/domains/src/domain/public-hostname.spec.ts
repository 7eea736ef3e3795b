import { isPublicHostname } from './public-hostname';

describe('isPublicHostname', () => {
  it('accepts public sites, IDNs in punycode and the never-resolving example names', () => {
    for (const domain of ['example.com', 'shop.co.uk', 'xn--mnchen-3ya.de', 'brand.example']) expect(isPublicHostname(domain)).toBe(true);
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
    ]) {
      expect(isPublicHostname(domain)).toBe(false);
    }
  });
});
