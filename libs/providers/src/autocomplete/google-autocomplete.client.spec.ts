import { parseProxyUrl, type ProxyConfig } from '@rank/serp/fetcher/serp-fetcher-config';
import { ForwardProxy } from '@rank/serp/fetcher/test-support/forward-proxy';
import { KeywordDataError } from '../keyword-data/keyword-data-error';
import { GoogleAutocomplete, decode } from './google-autocomplete.client';
import { startGoogleAutocompleteFake, type FakeGoogleAutocomplete } from './testing/fake-google-autocomplete';

async function failureOf(promise: Promise<unknown>): Promise<KeywordDataError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(KeywordDataError);
  return error as KeywordDataError;
}

const QUERY = { q: 'coffee', hl: 'en', gl: 'us' };

describe('GoogleAutocomplete against a fake Google autocomplete', () => {
  let google: FakeGoogleAutocomplete;
  let clients: GoogleAutocomplete[] = [];
  const client = (options: { proxies?: ProxyConfig[]; timeoutMs?: number; attempts?: number; now?: () => number } = {}) => {
    const made = new GoogleAutocomplete({
      baseUrl: google.url,
      proxies: options.proxies ?? [],
      blockRestMs: 60_000,
      timeoutMs: options.timeoutMs ?? 1_000,
      attempts: options.attempts,
      now: options.now,
    });
    clients.push(made);
    return made;
  };

  beforeAll(async () => {
    google = await startGoogleAutocompleteFake();
  });
  afterAll(() => google.close());
  beforeEach(() => google.reset());
  afterEach(async () => {
    await Promise.all(clients.map((c) => c.close()));
    clients = [];
  });

  it('asks /complete/search?client=firefox with q, hl, gl and answers the second element', async () => {
    google.phrases.set('coffee', ['coffee', 'coffee near me', ' coffee near me ', 'coffee beans', '']);
    expect(await client().complete(QUERY)).toEqual(['coffee', 'coffee near me', 'coffee beans']);
    expect(Object.fromEntries(google.requests[0].query)).toEqual({
      client: 'firefox',
      q: 'coffee',
      hl: 'en',
      gl: 'US',
      ie: 'utf-8',
      oe: 'utf-8',
    });
  });

  it('decodes an answer in a legacy charset by its Content-Type', async () => {
    google.charset = 'ISO-8859-1';
    google.phrases.set('münchen', ['münchen wetter', 'café münchen']);
    expect(await client().complete({ q: 'münchen', hl: 'de', gl: 'DE' })).toEqual(['münchen wetter', 'café münchen']);
    expect(decode(new Uint8Array([0x82, 0xa0]).buffer, 'text/javascript; charset=Shift_JIS')).toBe('あ');
    expect(() => decode(new ArrayBuffer(0), 'text/javascript; charset=x-unknown')).toThrow(KeywordDataError);
  });

  it('retries a 5xx once, then succeeds', async () => {
    google.failNext('server-error');
    expect(await client().complete(QUERY)).toHaveLength(4);
    expect(google.requests).toHaveLength(2);
  });

  it('a lasting 5xx is upstream_error after two tries', async () => {
    google.failWith('server-error');
    expect((await failureOf(client().complete(QUERY))).failure).toBe('upstream_error');
    expect(google.requests).toHaveLength(2);
  });

  it('a malformed answer is upstream_error, not retried', async () => {
    google.failWith('malformed');
    const error = await failureOf(client().complete(QUERY));
    expect(error.kind).toBe('malformed');
    expect(google.requests).toHaveLength(1);
  });

  it('a slow answer and a reset connection are unavailable, within the short timeout', async () => {
    google.failWith({ delayMs: 3_000 });
    const started = Date.now();
    expect((await failureOf(client().complete(QUERY))).failure).toBe('unavailable');
    // Two tries cut off at 1 s each, not two waits of 3 s.
    expect(Date.now() - started).toBeLessThan(4_500);
    google.failWith('reset');
    expect((await failureOf(client().complete(QUERY))).failure).toBe('unavailable');
  });

  it('a block rests the direct connection: the next calls fail at once without asking Google, until the rest is over', async () => {
    let now = 1_000_000;
    const direct = client({ now: () => now });
    google.failNext('block');
    expect((await failureOf(direct.complete(QUERY))).failure).toBe('unavailable');
    expect(google.requests).toHaveLength(1);
    expect((await failureOf(direct.complete(QUERY))).message).toContain('resting');
    expect(google.requests).toHaveLength(1);
    now += 60_001;
    expect(await direct.complete(QUERY)).toHaveLength(4);
  });

  describe('through the scraper proxies', () => {
    let first: ForwardProxy;
    let second: ForwardProxy;
    beforeAll(async () => {
      first = await ForwardProxy.start({ name: 'first', credentials: { username: 'user', password: 'p@ss' } });
      second = await ForwardProxy.start({ name: 'second' });
    });
    afterAll(async () => {
      await first.close();
      await second.close();
    });
    beforeEach(() => {
      first.forwarded.length = 0;
      second.forwarded.length = 0;
    });
    const proxies = () => [first.url, second.url].map((url) => parseProxyUrl(url) as ProxyConfig);

    it('goes out through the proxies in turn, with the proxy credentials', async () => {
      const viaProxies = client({ proxies: proxies() });
      await viaProxies.complete(QUERY);
      await viaProxies.complete(QUERY);
      expect(first.forwarded).toHaveLength(1);
      expect(second.forwarded).toHaveLength(1);
      expect(first.challenged).toBe(0);
      expect(google.requests.map((r) => r.headers['x-test-proxy'])).toEqual(['first', 'second']);
    });

    it('a proxy Google blocked rests; the retry goes through the other one', async () => {
      const viaProxies = client({ proxies: proxies() });
      google.failNext('block');
      expect(await viaProxies.complete(QUERY)).toHaveLength(4);
      expect(google.requests.map((r) => r.headers['x-test-proxy'])).toEqual(['first', 'second']);
      await viaProxies.complete(QUERY);
      expect(google.requests.map((r) => r.headers['x-test-proxy'])).toEqual(['first', 'second', 'second']);
    });

    it("asks through the proxy said to be in the query's country, as the scraper's result pages do", async () => {
      const viaProxies = client({ proxies: [`${second.url}#US`, first.url].map((url) => parseProxyUrl(url) as ProxyConfig) });
      await viaProxies.complete(QUERY);
      await viaProxies.complete(QUERY);
      await viaProxies.complete({ ...QUERY, gl: 'fr' });
      expect(google.requests.map((r) => r.headers['x-test-proxy'])).toEqual(['second', 'second', 'first']);
    });
  });
});
