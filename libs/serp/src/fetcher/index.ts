import type { BrowserThread } from '../browser/browser-thread';
import { googleConsentCookies } from './google-consent';
import { desktopUserAgent } from './page-loader';
import { SerpFetcher, type ParseSerpPage, type SerpFetchObserver } from './serp-fetcher';
import type { SerpFetcherConfig } from './serp-fetcher-config';

export {
  SerpFetcher,
  browserFailure,
  type ParseSerpPage,
  type SerpFetchOutcome,
  type SerpRequest,
  type SerpFetcherDependencies,
  type SerpFetchObserver,
  type SerpFailureCause,
} from './serp-fetcher';
export {
  DEFAULT_SERP_FETCHER_CONFIG,
  SerpFetcherConfigError,
  parseProxyUrl,
  serpFetcherConfig,
  serpFetcherConfigFromEnv,
  type ProxyConfig,
  type SerpFetcherConfig,
} from './serp-fetcher-config';
export { desktopUserAgent, type PageLoader, type PageLoadRequest, type PageLoadResult } from './page-loader';
export { buildSearchUrl } from './search-url';
export { GOOGLE_CONSENT_SOCS, googleConsentCookies } from './google-consent';
export type { Egress } from './egress-pool';

export interface CreateSerpFetcherOptions {
  /**
   * The browser, in a thread of its own (or a RelaunchingBrowser over such threads); the fetcher
   * opens a page loader on it and does not close it.
   */
  browser: Pick<BrowserThread, 'version' | 'pageLoader'>;
  config: SerpFetcherConfig;
  /** `parseSerpPage` from libs/serp/src/parser. */
  parse: ParseSerpPage;
  /** For tests: the clock that decides when a blocked proxy is back. */
  now?: () => number;
  /** Told of every page load and block, for metrics. */
  observer?: SerpFetchObserver;
}

/** Wires a `SerpFetcher` to a Chromium page loader built from the config. */
export function createSerpFetcher(options: CreateSerpFetcherOptions): SerpFetcher {
  const { browser, config, parse } = options;
  const loader = browser.pageLoader({
    navigationTimeoutMs: config.navigationTimeoutMs,
    maxConcurrentPages: config.maxConcurrentPages,
    maxContexts: config.maxContexts,
    subresourceHosts: config.subresourceHosts,
    // Google's consent cookie in every context: from EU addresses Google shows results, not its consent page.
    contextCookies: googleConsentCookies(config.baseUrl),
  });
  const userAgents = config.userAgents.length > 0 ? config.userAgents : [desktopUserAgent(browser.version())];
  return new SerpFetcher(config, { loader, parse, userAgents, now: options.now, observer: options.observer });
}
