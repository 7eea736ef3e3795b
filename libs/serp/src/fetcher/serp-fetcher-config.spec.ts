import {
  DEFAULT_MIN_INTERVAL_MS,
  DEFAULT_SERP_FETCHER_CONFIG,
  parseProxyUrl,
  SerpFetcherConfigError,
  serpFetcherConfigFromEnv,
} from './serp-fetcher-config';

function problemsOf(env: Record<string, string>): string[] {
  try {
    serpFetcherConfigFromEnv(env);
  } catch (error) {
    if (error instanceof SerpFetcherConfigError) return error.problems;
    throw error;
  }
  throw new Error('expected the configuration to be rejected');
}

it('uses the defaults when nothing (or only blanks) is set, pacing a deployment by a few seconds', () => {
  const deployed = { ...DEFAULT_SERP_FETCHER_CONFIG, minIntervalMs: DEFAULT_MIN_INTERVAL_MS };
  expect(serpFetcherConfigFromEnv({})).toEqual(deployed);
  expect(serpFetcherConfigFromEnv({ GOOGLE_BASE_URL: '  ', SCRAPER_PROXIES: '' })).toEqual(deployed);
  expect(DEFAULT_MIN_INTERVAL_MS).toBeGreaterThanOrEqual(2_000);
  expect(DEFAULT_SERP_FETCHER_CONFIG.baseUrl).toBe('https://www.google.com');
});

it('reads every variable', () => {
  const config = serpFetcherConfigFromEnv({
    GOOGLE_BASE_URL: 'http://127.0.0.1:8080/',
    SCRAPER_NAVIGATION_TIMEOUT_MS: '15000',
    SCRAPER_CONCURRENCY: '4',
    SCRAPER_MAX_CONTEXTS: '6',
    SCRAPER_MAX_ATTEMPTS: '5',
    SCRAPER_RETRY_BASE_DELAY_MS: '500',
    SCRAPER_RETRY_MAX_DELAY_MS: '8000',
    SCRAPER_BLOCK_REST_MS: '60000',
    SCRAPER_PROXIES: 'http://user:p%40ss@10.0.0.1:3128, socks5://10.0.0.2:1080#de',
    SCRAPER_MIN_INTERVAL_MS: '1500',
    SCRAPER_HOURLY_BUDGET: '120',
  });

  expect(config).toMatchObject({
    minIntervalMs: 1_500,
    hourlyBudget: 120,
    baseUrl: 'http://127.0.0.1:8080',
    navigationTimeoutMs: 15_000,
    maxConcurrentPages: 4,
    maxContexts: 6,
    maxAttempts: 5,
    retryBaseDelayMs: 500,
    retryMaxDelayMs: 8_000,
    blockRestMs: 60_000,
    proxies: [
      { server: 'http://10.0.0.1:3128', username: 'user', password: 'p@ss', label: '10.0.0.1:3128' },
      { server: 'socks5://10.0.0.2:1080', label: '10.0.0.2:1080', country: 'DE' },
    ],
  });
});

it('names each bad variable, all at once', () => {
  const problems = problemsOf({
    GOOGLE_BASE_URL: 'www.google.com',
    SCRAPER_CONCURRENCY: '0',
    SCRAPER_MAX_ATTEMPTS: 'three',
    SCRAPER_NAVIGATION_TIMEOUT_MS: '1.5',
  });

  expect(problems).toEqual([
    expect.stringContaining('GOOGLE_BASE_URL'),
    expect.stringContaining('SCRAPER_NAVIGATION_TIMEOUT_MS'),
    expect.stringContaining('SCRAPER_CONCURRENCY'),
    expect.stringContaining('SCRAPER_MAX_ATTEMPTS'),
  ]);
  expect(problems[3]).toBe('SCRAPER_MAX_ATTEMPTS must be a whole number from 1 to 10, got "three"');
});

it('rejects a retry cap below the base delay', () => {
  expect(problemsOf({ SCRAPER_RETRY_BASE_DELAY_MS: '5000', SCRAPER_RETRY_MAX_DELAY_MS: '1000' })).toEqual([
    expect.stringMatching(/SCRAPER_RETRY_MAX_DELAY_MS .* SCRAPER_RETRY_BASE_DELAY_MS/),
  ]);
});

it('points at the bad proxy entry without printing its password', () => {
  const problems = problemsOf({ SCRAPER_PROXIES: 'http://a:secret@10.0.0.1:3128,ftp://10.0.0.2:21,http://b:secret@10.0.0.3' });

  expect(problems).toEqual([
    'SCRAPER_PROXIES entry 2 (ftp://10.0.0.2:21): scheme must be one of http, https, socks5',
    'SCRAPER_PROXIES entry 3 (http://***@10.0.0.3): port is missing (write it out, e.g. :8080)',
  ]);
});

it('does not print the part of a password before a comma, which splits the entry in two', () => {
  // Before: "SCRAPER_PROXIES entry 1 (http://user:SECRET): not a URL; …".
  const problems = problemsOf({ SCRAPER_PROXIES: 'http://user:SECRET,PROXYPASS@10.0.0.1:3128' });
  expect(problems.join('\n')).not.toMatch(/SECRET|PROXYPASS/);
  expect(problems).toEqual([
    'SCRAPER_PROXIES entry 1: not a URL; expected http://user:pass@host:port',
    'SCRAPER_PROXIES entry 2 (***@10.0.0.1:3128): not a URL; expected http://user:pass@host:port',
  ]);
});

it('rejects a proxy listed twice', () => {
  expect(problemsOf({ SCRAPER_PROXIES: 'http://10.0.0.1:3128,http://u:p@10.0.0.1:3128' })).toEqual([
    'SCRAPER_PROXIES entry 2 (10.0.0.1:3128) is listed twice',
  ]);
});

describe('parseProxyUrl', () => {
  it.each([
    ['10.0.0.1:3128', 'not a URL; expected http://user:pass@host:port'],
    ['socks5://u:p@10.0.0.1:1080', 'SOCKS5 proxies with credentials are not supported by Chromium'],
    ['http://10.0.0.1:3128/path', 'must not have a path or query'],
    [
      'http://10.0.0.1:3128#Germany',
      "what follows # must be the country the proxy's address is in, an ISO 3166-1 alpha-2 code such as #DE (got #Germany)",
    ],
    [
      'http://10.0.0.1:3128#XX',
      "what follows # must be the country the proxy's address is in, an ISO 3166-1 alpha-2 code such as #DE (got #XX)",
    ],
  ])('rejects %s', (text, problem) => {
    expect(parseProxyUrl(text)).toBe(problem);
  });
});
