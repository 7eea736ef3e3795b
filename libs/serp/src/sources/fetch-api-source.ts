import type { ParseSerpPage, SerpFetchObserver } from '../fetcher/serp-fetcher';
import { SerpFetcher } from '../fetcher/serp-fetcher';
import type { SerpFetcherConfig } from '../fetcher/serp-fetcher-config';
import { FETCH_API_EGRESS, FetchApiPageLoader } from './fetch-api-page-loader';
import type { SerpSource } from './serp-source';

/** A user agent for the request to the API; the API chooses the one it shows Google. */
const API_CLIENT_AGENT = 'rank-tracker';

/**
 * The `fetch-api` source: our pager and parser over a scraping API instead of the browser. It pages,
 * retries and rests like the browser does (a captcha the API hands back rests the API for the block
 * rest), but is not paced and uses no proxies: the API spreads requests over its own addresses.
 */
export function fetchApiSource(options: {
  template: string;
  config: SerpFetcherConfig;
  parse: ParseSerpPage;
  observer?: SerpFetchObserver;
  now?: () => number;
}): SerpSource {
  const { config } = options;
  const fetcher = new SerpFetcher(
    { ...config, proxies: [], minIntervalMs: 0, hourlyBudget: 0 },
    {
      loader: new FetchApiPageLoader(options.template, config.navigationTimeoutMs),
      parse: options.parse,
      userAgents: [API_CLIENT_AGENT],
      observer: options.observer,
      now: options.now,
      directEgress: FETCH_API_EGRESS,
    },
  );
  return { name: 'fetch-api', fetchSerp: (request) => fetcher.fetchSerp(request), close: () => fetcher.close() };
}
