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
