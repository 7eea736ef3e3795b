import type { ChromiumChoice } from '@rank/serp/browser/chromium';
import { CruxHistoryClient, NoCruxHistory } from './crux/crux-history-client';
import type { CruxHistoryProvider } from './crux/crux-history-provider';
import type { DomainDataProvidersConfig } from './domain-data-config';
import { LighthousePageSpeedProvider } from './pagespeed/lighthouse-page-speed-provider';
import type { PageSpeedProvider } from './pagespeed/page-speed-provider';
import { PsiPageSpeedProvider } from './pagespeed/psi-page-speed-provider';
import { NoTraffic, SimilarwebClient } from './similarweb/similarweb-client';
import type { TrafficProvider } from './similarweb/traffic-provider';

export interface LocalBrowser {
  /** The browser chosen (and logged) at start; chosen from `env` at the first run otherwise. */
  chromium?: ChromiumChoice;
  env?: Readonly<Record<string, string | undefined>>;
}

/** PageSpeed Insights when configured, else Lighthouse in our own Chromium, so page speed always works. */
export function createPageSpeedProvider(config: DomainDataProvidersConfig, browser: LocalBrowser = {}): PageSpeedProvider {
  const psi = config.pageSpeedInsights;
  return psi ? new PsiPageSpeedProvider({ baseUrl: psi.baseUrl, apiKey: psi.apiKey }) : new LighthousePageSpeedProvider(browser);
}

export function createCruxHistoryProvider(config: DomainDataProvidersConfig): CruxHistoryProvider {
  const crux = config.crux;
  return crux ? new CruxHistoryClient({ baseUrl: crux.baseUrl, apiKey: crux.apiKey }) : new NoCruxHistory();
}

export function createTrafficProvider(config: DomainDataProvidersConfig): TrafficProvider {
  const similarweb = config.similarweb;
  return similarweb ? new SimilarwebClient({ baseUrl: similarweb.baseUrl, apiKey: similarweb.apiKey }) : new NoTraffic();
}
