import { retryDelayMs } from './backoff';
import { DIRECT_EGRESS, EgressPool } from './egress-pool';
import { GOOGLE_CONSENT_SOCS, googleConsentCookies } from './google-consent';
import { acceptLanguages, browserLocale, buildSearchUrl } from './search-url';
import { parseProxyUrl, type ProxyConfig } from './serp-fetcher-config';
import { Semaphore } from './semaphore';

describe('retryDelayMs', () => {
  it('doubles per retry, keeps at least half of it, and stops at the cap', () => {
    const low = () => 0;
    const high = () => 1;
    expect([1, 2, 3, 4].map((retry) => retryDelayMs(retry, 1_000, 5_000, high))).toEqual([1_000, 2_000, 4_000, 5_000]);
    expect([1, 2, 3, 4].map((retry) => retryDelayMs(retry, 1_000, 5_000, low))).toEqual([500, 1_000, 2_000, 2_500]);
  });
});

describe('EgressPool', () => {
  const proxy = (text: string) => parseProxyUrl(text) as ProxyConfig;

  it('is the direct connection alone when there are no proxies', () => {
    const pool = new EgressPool([], 1_000, () => 0);
    expect(pool.usesProxies).toBe(false);
    expect([pool.next(), pool.next()]).toEqual([DIRECT_EGRESS, DIRECT_EGRESS]);
  });

  it('takes proxies in turn, skips a resting one, and takes it back when its rest is over', () => {
    let now = 0;
    const pool = new EgressPool([proxy('http://10.0.0.1:1'), proxy('http://10.0.0.2:2'), proxy('http://10.0.0.3:3')], 1_000, () => now);
    const labels = (count: number) => Array.from({ length: count }, () => pool.next()?.label);

    expect(labels(4)).toEqual(['proxy 10.0.0.1:1', 'proxy 10.0.0.2:2', 'proxy 10.0.0.3:3', 'proxy 10.0.0.1:1']);

    const second = pool.next()!;
    expect(pool.rest(second)).toBe(1_000);
    expect(labels(3)).toEqual(['proxy 10.0.0.3:3', 'proxy 10.0.0.1:1', 'proxy 10.0.0.3:3']);
    expect(pool.availableCount()).toBe(2);
    expect(pool.firstReturn()).toBe(1_000);

    now = 1_000;
    expect(labels(3)).toEqual(['proxy 10.0.0.1:1', 'proxy 10.0.0.2:2', 'proxy 10.0.0.3:3']);
    expect(pool.firstReturn()).toBeUndefined();
  });

  describe('with proxies said to be in a country', () => {
    // Two in Germany, two of no country, one in the US.
    const tagged = () =>
      new EgressPool(
        ['http://10.0.0.1:1#DE', 'http://10.0.0.2:2#de', 'http://10.0.0.3:3', 'http://10.0.0.4:4', 'http://10.0.0.5:5#US'].map(proxy),
        1_000,
        () => 0,
      );

    it("serves a country's searches from its own proxies alone, in turn, and other countries' from the proxies of no country", () => {
      const pool = tagged();
      const next = (country?: string) => pool.next(country)?.label;

      expect([next('de'), next('DE'), next('de')]).toEqual(['proxy 10.0.0.1:1 (DE)', 'proxy 10.0.0.2:2 (DE)', 'proxy 10.0.0.1:1 (DE)']);
      expect([next('us'), next('us')]).toEqual(['proxy 10.0.0.5:5 (US)', 'proxy 10.0.0.5:5 (US)']);
      // France and Italy have no proxy of their own: they share one turn over the proxies of no country.
      expect([next('fr'), next('it'), next('fr')]).toEqual(['proxy 10.0.0.3:3', 'proxy 10.0.0.4:4', 'proxy 10.0.0.3:3']);
      // A search that names no country takes every proxy in turn.
      expect([next(), next(), next()]).toEqual(['proxy 10.0.0.1:1 (DE)', 'proxy 10.0.0.2:2 (DE)', 'proxy 10.0.0.3:3']);
    });

    it("leaves a country's searches without a way out while its proxies rest, rather than sending them from abroad", () => {
      let now = 0;
      const pool = new EgressPool(['http://10.0.0.1:1#DE', 'http://10.0.0.3:3'].map(proxy), 1_000, () => now);
      pool.rest(pool.next('de')!);

      expect(pool.next('de')).toBeUndefined();
      expect(pool.availableCount('de')).toBe(0);
      expect(pool.firstReturn('de')).toBe(1_000);
      expect(pool.next('fr')?.label).toBe('proxy 10.0.0.3:3');
      expect(pool.firstReturn('fr')).toBeUndefined();

      now = 1_000;
      expect(pool.next('de')?.label).toBe('proxy 10.0.0.1:1 (DE)');
    });

    it('serves a country without proxies from every proxy when all of them are in some country', () => {
      const pool = new EgressPool(['http://10.0.0.1:1#DE', 'http://10.0.0.5:5#US'].map(proxy), 1_000, () => 0);

      expect([pool.next('fr')?.label, pool.next('fr')?.label]).toEqual(['proxy 10.0.0.1:1 (DE)', 'proxy 10.0.0.5:5 (US)']);
      expect(pool.all('fr')).toHaveLength(2);
      expect(pool.all('de')).toHaveLength(1);
    });
  });

  it('has nothing to hand out while all are resting', () => {
    const pool = new EgressPool([proxy('http://10.0.0.1:1')], 1_000, () => 0);
    pool.rest(pool.next()!);
    expect(pool.next()).toBeUndefined();
  });
});

describe('search URLs and language', () => {
  it('builds the contract URL, with start only past the first page', () => {
    const target = { keyword: 'ça va? 100% & more', geoCode: 'FR', langCode: 'fr' };
    const first = new URL(buildSearchUrl('https://www.google.fr/', target, 0));
    const third = new URL(buildSearchUrl('https://www.google.fr', target, 20));

    expect(first.origin + first.pathname).toBe('https://www.google.fr/search');
    expect(Object.fromEntries(first.searchParams)).toEqual({ q: 'ça va? 100% & more', hl: 'fr', gl: 'fr', pws: '0' });
    expect(third.searchParams.get('start')).toBe('20');
  });

  it('derives the browser locale and Accept-Language from hl and gl', () => {
    expect(browserLocale({ langCode: 'de', geoCode: 'at' })).toBe('de-AT');
    expect(browserLocale({ langCode: 'pt-BR', geoCode: 'us' })).toBe('pt-BR');
    expect(acceptLanguages({ langCode: 'en', geoCode: 'gb' })).toBe('en-GB,en');
  });
});

describe('googleConsentCookies', () => {
  const socs = { name: 'SOCS', value: GOOGLE_CONSENT_SOCS, sameSite: 'Lax' };

  it("is a domain cookie for Google's domain, as Google's own is, so consent.google.<tld> and the bare domain get it too", () => {
    expect(googleConsentCookies('https://www.google.com')).toEqual([{ ...socs, secure: true, domain: '.google.com', path: '/' }]);
    expect(googleConsentCookies('https://www.google.co.uk/')).toEqual([{ ...socs, secure: true, domain: '.google.co.uk', path: '/' }]);
    expect(googleConsentCookies('https://google.de')).toEqual([{ ...socs, secure: true, domain: '.google.de', path: '/' }]);
  });

  it('is a cookie for the host itself on an IP address or a one-label name, and not Secure over plain HTTP', () => {
    expect(googleConsentCookies('http://127.0.0.1:41234')).toEqual([{ ...socs, secure: false, url: 'http://127.0.0.1:41234/' }]);
    expect(googleConsentCookies('http://localhost:3000/fake-google')).toEqual([{ ...socs, secure: false, url: 'http://localhost:3000/' }]);
    expect(googleConsentCookies('http://[::1]:8080')).toEqual([{ ...socs, secure: false, url: 'http://[::1]:8080/' }]);
  });
});

describe('Semaphore', () => {
  it('runs at most `limit` tasks at once and lets waiting ones in, in order', async () => {
    const semaphore = new Semaphore(2);
    const started: number[] = [];
    const finishers: Array<() => void> = [];
    const tasks = [0, 1, 2, 3].map((i) =>
      semaphore.run(async () => {
        started.push(i);
        await new Promise<void>((resolve) => finishers.push(resolve));
      }),
    );
    await Promise.resolve();
    expect(started).toEqual([0, 1]);

    finishers.shift()!();
    await new Promise((resolve) => setImmediate(resolve));
    expect(started).toEqual([0, 1, 2]);

    finishers.splice(0).forEach((finish) => finish());
    await new Promise((resolve) => setImmediate(resolve));
    finishers.splice(0).forEach((finish) => finish());
    await Promise.all(tasks);
    expect(started).toEqual([0, 1, 2, 3]);
  });
});
