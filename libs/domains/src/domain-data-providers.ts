import type { AppConfig } from '@rank/platform/config/app-config';
import type { CruxHistoryProvider } from '@rank/providers/crux/crux-history-provider';
import { createCruxHistoryProvider, createPageSpeedProvider, createTrafficProvider } from '@rank/providers/domain-data-providers';
import type { PageSpeedProvider } from '@rank/providers/pagespeed/page-speed-provider';
import type { TrafficProvider } from '@rank/providers/similarweb/traffic-provider';

/** The outside providers of domain data, made once per process from the configuration. */
export interface DomainDataProviders {
  traffic: TrafficProvider;
  pageSpeed: PageSpeedProvider;
  crux: CruxHistoryProvider;
}

export const DOMAIN_DATA_PROVIDERS = Symbol('DOMAIN_DATA_PROVIDERS');

/**
 * PageSpeed Insights when PAGESPEED_* is set, else Lighthouse in this process's Chromium (chosen as
 * the scraper chooses it: CHROMIUM_PATH, a system browser, the bundled one); CrUX and Similarweb
 * when configured, else providers that answer "no data".
 */
export function domainDataProvidersFrom(config: AppConfig): DomainDataProviders {
  return {
    traffic: createTrafficProvider(config.domainData),
    pageSpeed: createPageSpeedProvider(config.domainData, { env: process.env }),
    crux: createCruxHistoryProvider(config.domainData),
  };
}
