import { Env, envReader } from '@rank/domain/env-reader';
import { DEFAULT_CRUX_BASE_URL } from './crux/crux-history-client';
import { DEFAULT_PAGESPEED_BASE_URL } from './pagespeed/psi-page-speed-provider';
import { DEFAULT_SIMILARWEB_BASE_URL } from './similarweb/similarweb-client';

/** An HTTP provider the operator configured: where it is and the key it wants. */
export interface ProviderEndpoint {
  baseUrl: string;
  apiKey: string | undefined;
}

/** The domain-data providers; undefined means not configured. */
export interface DomainDataProvidersConfig {
  /** PageSpeed Insights; when undefined a local Lighthouse run measures page speed. */
  pageSpeedInsights: ProviderEndpoint | undefined;
  crux: ProviderEndpoint | undefined;
  similarweb: ProviderEndpoint | undefined;
}

/**
 * Reads PAGESPEED_*, CRUX_* and SIMILARWEB_* variables. A provider counts as configured when its
 * key or its base URL is set (the clarifications' rule for PageSpeed, applied to all three: a
 * keyless proxy or a local double is set by URL alone). Problems are returned, each naming its
 * variable, for the app configuration to report with the others.
 */
export function domainDataProvidersConfigFromEnv(env: Env): { config: DomainDataProvidersConfig; problems: string[] } {
  const { problems, get, httpUrl } = envReader(env);
  const endpoint = (prefix: string, defaultBaseUrl: string): ProviderEndpoint | undefined => {
    const urlName = `${prefix}_BASE_URL`;
    const keyName = `${prefix}_API_KEY`;
    const apiKey = get(keyName);
    if (get(urlName) === undefined && apiKey === undefined) return undefined;
    const baseUrl = httpUrl(urlName, defaultBaseUrl);
    // The key goes into a query string; the value itself is never echoed in the message.
    if (apiKey !== undefined && !/^[\x21-\x7e]{1,512}$/.test(apiKey))
      problems.push(`${keyName} must be printable characters without spaces, at most 512`);
    return { baseUrl, apiKey };
  };
  return {
    config: {
      pageSpeedInsights: endpoint('PAGESPEED', DEFAULT_PAGESPEED_BASE_URL),
      crux: endpoint('CRUX', DEFAULT_CRUX_BASE_URL),
      similarweb: endpoint('SIMILARWEB', DEFAULT_SIMILARWEB_BASE_URL),
    },
    problems,
  };
}
