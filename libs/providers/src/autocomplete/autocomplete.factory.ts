import type { SerpFetcherConfig } from '@rank/serp/fetcher/serp-fetcher-config';
import type { AutocompleteProvider } from './autocomplete.port';
import { GoogleAutocomplete } from './google-autocomplete.client';

/**
 * Autocomplete needs no configuration of its own: it reads Google where the scraper does
 * (GOOGLE_BASE_URL) through the same proxies (SCRAPER_PROXIES) with the same rest after a block
 * (SCRAPER_BLOCK_REST_MS). One instance per process keeps the rests and the proxy connections.
 */
export function createAutocomplete(
  scraper: Pick<SerpFetcherConfig, 'baseUrl' | 'proxies' | 'blockRestMs'>,
): GoogleAutocomplete & AutocompleteProvider {
  return new GoogleAutocomplete({ baseUrl: scraper.baseUrl, proxies: scraper.proxies, blockRestMs: scraper.blockRestMs });
}
