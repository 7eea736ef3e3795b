/** Settings of the SERP fetcher, and how they are read from the environment. */

import type { Env } from '@rank/domain/env-reader';
import { isCountryCode } from '@rank/domain/iso-codes';
import { withoutUserinfo } from '@rank/domain/secret-text';

/** A forward proxy as Playwright takes it; credentials are kept apart from the label we log. */
export interface ProxyConfig {
  /** `scheme://host:port`, no credentials. */
  server: string;
  username?: string;
  password?: string;
  /** `host:port`: safe to put in logs and failure reasons. */
  label: string;
  /**
   * Where the proxy's address is (ISO 3166-1 alpha-2, uppercase), from a `#DE` after its URL:
   * searches in that country go out through the proxies of that country only.
   */
  country?: string;
}

export interface SerpFetcherConfig {
  /** Origin the result pages are fetched from (`GOOGLE_BASE_URL`). */
  baseUrl: string;
  /** Per page load, from the request until the document is readable (`SCRAPER_NAVIGATION_TIMEOUT_MS`). */
  navigationTimeoutMs: number;
  /** Pages loading at once across all checks (`SCRAPER_CONCURRENCY`). */
  maxConcurrentPages: number;
  /** Browser contexts kept open; at least one per proxy in use at a time (`SCRAPER_MAX_CONTEXTS`). */
  maxContexts: number;
  /** Loads of one page before a transient failure (timeout, network error, 5xx) fails the check (`SCRAPER_MAX_ATTEMPTS`). */
  maxAttempts: number;
  /** First retry waits about this long, doubling each time (`SCRAPER_RETRY_BASE_DELAY_MS`). */
  retryBaseDelayMs: number;
  /** Cap of one retry wait (`SCRAPER_RETRY_MAX_DELAY_MS`). */
  retryMaxDelayMs: number;
  /** Forward proxies, used in turn; empty means a direct connection (`SCRAPER_PROXIES`). */
  proxies: ProxyConfig[];
  /** How long a proxy (or the direct connection) is left alone after Google blocked it (`SCRAPER_BLOCK_REST_MS`). */
  blockRestMs: number;
  /**
   * Hosts (and their subdomains) a result page may load scripts and styles from, besides the host
   * of the page itself. Anything else is aborted: it is not needed to read the results.
   */
  subresourceHosts: string[];
  /** User agents used in turn; empty means the browser's own, minus its "Headless" marker. */
  userAgents: string[];
  /** Minimum time between two requests to Google from one egress, plus jitter (`SCRAPER_MIN_INTERVAL_MS`). */
  minIntervalMs: number;
  /** Requests one egress may make in any hour; 0 means no budget (`SCRAPER_HOURLY_BUDGET`). */
  hourlyBudget: number;
}

/**
 * The interval a deployment gets when `SCRAPER_MIN_INTERVAL_MS` is unset: a person reading result
 * pages does not ask for one every second. Code that builds a config itself (tests, embedding) starts
 * from no pacing and opts in.
 */
export const DEFAULT_MIN_INTERVAL_MS = 4_000;

export const DEFAULT_SERP_FETCHER_CONFIG: Readonly<SerpFetcherConfig> = Object.freeze({
  baseUrl: 'https://www.google.com',
  navigationTimeoutMs: 30_000,
  maxConcurrentPages: 2,
  maxContexts: 8,
  maxAttempts: 3,
  retryBaseDelayMs: 2_000,
  retryMaxDelayMs: 30_000,
  proxies: [],
  blockRestMs: 30 * 60_000,
  subresourceHosts: ['google.com', 'gstatic.com'],
  userAgents: [],
  minIntervalMs: 0,
  hourlyBudget: 0,
});

/** Builds a config from defaults plus overrides (tests, embedding code). */
export function serpFetcherConfig(overrides: Partial<SerpFetcherConfig> = {}): SerpFetcherConfig {
  return {
    ...DEFAULT_SERP_FETCHER_CONFIG,
    proxies: [...DEFAULT_SERP_FETCHER_CONFIG.proxies],
    subresourceHosts: [...DEFAULT_SERP_FETCHER_CONFIG.subresourceHosts],
    userAgents: [...DEFAULT_SERP_FETCHER_CONFIG.userAgents],
    ...overrides,
  };
}

export class SerpFetcherConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid scraper configuration:\n- ${problems.join('\n- ')}`);
    this.name = 'SerpFetcherConfigError';
  }
}

/**
 * Reads the fetcher's settings from environment variables, falling back to the defaults for unset
 * or empty ones. Every bad variable is reported at once, by name, so a boot fails with one clear
 * message instead of a scraper that misbehaves later.
 */
export function serpFetcherConfigFromEnv(env: Env): SerpFetcherConfig {
  const problems: string[] = [];
  const defaults = DEFAULT_SERP_FETCHER_CONFIG;
  const integer = (name: string, fallback: number, min: number, max = Number.MAX_SAFE_INTEGER): number => {
    const raw = env[name]?.trim();
    if (!raw) return fallback;
    if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
      problems.push(`${name} must be a whole number from ${min} to ${max}, got "${raw}"`);
      return fallback;
    }
    return Number(raw);
  };

  const config: SerpFetcherConfig = {
    baseUrl: readBaseUrl(env, problems),
    navigationTimeoutMs: integer('SCRAPER_NAVIGATION_TIMEOUT_MS', defaults.navigationTimeoutMs, 1_000, 600_000),
    maxConcurrentPages: integer('SCRAPER_CONCURRENCY', defaults.maxConcurrentPages, 1, 64),
    maxContexts: integer('SCRAPER_MAX_CONTEXTS', defaults.maxContexts, 1, 256),
    maxAttempts: integer('SCRAPER_MAX_ATTEMPTS', defaults.maxAttempts, 1, 10),
    retryBaseDelayMs: integer('SCRAPER_RETRY_BASE_DELAY_MS', defaults.retryBaseDelayMs, 0, 600_000),
    retryMaxDelayMs: integer('SCRAPER_RETRY_MAX_DELAY_MS', defaults.retryMaxDelayMs, 0, 3_600_000),
    proxies: readProxies(env, problems),
    blockRestMs: integer('SCRAPER_BLOCK_REST_MS', defaults.blockRestMs, 0, 7 * 24 * 3_600_000),
    subresourceHosts: [...defaults.subresourceHosts],
    userAgents: [...defaults.userAgents],
    minIntervalMs: integer('SCRAPER_MIN_INTERVAL_MS', DEFAULT_MIN_INTERVAL_MS, 0, 600_000),
    hourlyBudget: integer('SCRAPER_HOURLY_BUDGET', defaults.hourlyBudget, 0, 1_000_000),
  };
  if (config.retryMaxDelayMs < config.retryBaseDelayMs) {
    problems.push(
      `SCRAPER_RETRY_MAX_DELAY_MS (${config.retryMaxDelayMs}) must not be below SCRAPER_RETRY_BASE_DELAY_MS (${config.retryBaseDelayMs})`,
    );
  }
  if (problems.length > 0) throw new SerpFetcherConfigError(problems);
  return config;
}

function readBaseUrl(env: Env, problems: string[]): string {
  const raw = env.GOOGLE_BASE_URL?.trim();
  if (!raw) return DEFAULT_SERP_FETCHER_CONFIG.baseUrl;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    problems.push(`GOOGLE_BASE_URL must be an absolute http(s) URL, got "${withoutUserinfo(raw)}"`);
    return DEFAULT_SERP_FETCHER_CONFIG.baseUrl;
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.search || url.hash || url.username || url.password) {
    problems.push(`GOOGLE_BASE_URL must be a plain http(s) origin such as https://www.google.com, got "${withoutUserinfo(raw)}"`);
    return DEFAULT_SERP_FETCHER_CONFIG.baseUrl;
  }
  // Paths are kept (a test double may live under one) but never with a trailing slash.
  return `${url.origin}${url.pathname}`.replace(/\/+$/, '');
}

function readProxies(env: Env, problems: string[]): ProxyConfig[] {
  const raw = env.SCRAPER_PROXIES?.trim();
  if (!raw) return [];
  const proxies: ProxyConfig[] = [];
  raw
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry.length > 0)
    .forEach((entry, index) => {
      const parsed = parseProxyUrl(entry);
      if (typeof parsed === 'string') {
        // An entry without `@` that is no URL is not shown: it may be a password's first part, cut at
        // a comma inside it (`user:pa,ss@host`); one with `@` is shown with its password masked.
        const shown = entry.includes('@') ? ` (${withoutUserinfo(entry)})` : URL.canParse(entry) ? ` (${entry})` : '';
        problems.push(`SCRAPER_PROXIES entry ${index + 1}${shown}: ${parsed}`);
      } else if (proxies.some((proxy) => proxy.server === parsed.server)) {
        problems.push(`SCRAPER_PROXIES entry ${index + 1} (${parsed.label}) is listed twice`);
      } else {
        proxies.push(parsed);
      }
    });
  return proxies;
}

const PROXY_SCHEMES = ['http:', 'https:', 'socks5:'];

/** Parses `scheme://[user:pass@]host:port[#country]`; returns what is wrong as a string. */
export function parseProxyUrl(text: string): ProxyConfig | string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return 'not a URL; expected http://user:pass@host:port';
  }
  if (!PROXY_SCHEMES.includes(url.protocol)) {
    return `scheme must be one of ${PROXY_SCHEMES.map((scheme) => scheme.slice(0, -1)).join(', ')}`;
  }
  if (!url.hostname) return 'host is missing';
  if (!url.port) return 'port is missing (write it out, e.g. :8080)';
  if ((url.pathname && url.pathname !== '/') || url.search) return 'must not have a path or query';
  const country = url.hash.slice(1);
  if (url.hash && !isCountryCode(country)) {
    return `what follows # must be the country the proxy's address is in, an ISO 3166-1 alpha-2 code such as #DE (got #${country})`;
  }
  let username: string;
  let password: string;
  try {
    username = decodeURIComponent(url.username);
    password = decodeURIComponent(url.password);
  } catch {
    return 'the user or password has a percent escape that does not decode (write a literal % as %25)';
  }
  // Chromium cannot authenticate to SOCKS proxies, so credentials there would be silently ignored.
  if (url.protocol === 'socks5:' && username) return 'SOCKS5 proxies with credentials are not supported by Chromium';
  const label = `${url.hostname}:${url.port}`;
  return {
    server: `${url.protocol}//${url.host}`,
    ...(username ? { username, password } : {}),
    label,
    ...(country ? { country: country.toUpperCase() } : {}),
  };
}
