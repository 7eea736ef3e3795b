import { domainOfUrl, isSameSiteOrSubdomain, normaliseDomain } from './domain-name';

describe('normaliseDomain', () => {
  it.each([
    ['Example.COM/', 'example.com'],
    ['https://www.example.com/path?q=1', 'example.com'],
    ['example.com', 'example.com'],
    ['http://user:pw@shop.example.com:8080/x', 'shop.example.com'],
    ['  WWW.Bücher.de ', 'xn--bcher-kva.de'],
    ['example.com.', 'example.com'],
    [`${'a'.repeat(63)}.com`, `${'a'.repeat(63)}.com`],
    [`${'abcdefghi.'.repeat(24)}example.com`, `${'abcdefghi.'.repeat(24)}example.com`],
  ])('given %p, it gives %p', (input, expected) => {
    expect(normaliseDomain(input)).toBe(expected);
  });

  it.each([
    '',
    '   ',
    'https://',
    'not a domain',
    'exa mple.com',
    // Longer than DNS allows: a label over 63 characters, a name over 253.
    `${'a'.repeat(64)}.com`,
    `${'a'.repeat(7_000)}.com`,
    `${'abcdefghi.'.repeat(25)}example.com`,
  ])('given %p, it gives null', (input) => {
    expect(normaliseDomain(input)).toBeNull();
  });
});

describe('domainOfUrl', () => {
  it('gives the normalised host of a URL, and null for a non-URL', () => {
    expect(domainOfUrl('https://www.Example.com/a/b')).toBe('example.com');
    expect(domainOfUrl('/relative/path')).toBeNull();
  });
});

describe('isSameSiteOrSubdomain', () => {
  it('matches the domain and its subdomains, not look-alikes', () => {
    expect(isSameSiteOrSubdomain('example.com', 'example.com')).toBe(true);
    expect(isSameSiteOrSubdomain('blog.example.com', 'example.com')).toBe(true);
    expect(isSameSiteOrSubdomain('notexample.com', 'example.com')).toBe(false);
  });
});
