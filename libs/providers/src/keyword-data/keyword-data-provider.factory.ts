import { DataForSeoKeywordData } from '../dataforseo/keyword-data.client';
import { GoogleAdsKeywordData } from '../google-ads/keyword-planner.client';
import type { RetryPolicy } from '../shared/retry';
import type { KeywordProvidersConfig } from './keyword-data-config';
import type { KeywordDataProvider } from './keyword-data.port';

/**
 * The configured keyword-data provider: DataForSEO when DATAFORSEO_LOGIN and _PASSWORD are set,
 * else the Google Ads account when all GOOGLE_ADS_* are set, else null (no volumes, no paid ideas).
 * DataForSEO wins when both are set: it needs no Ads account in good standing and bills per call.
 */
export function createKeywordDataProvider(config: KeywordProvidersConfig, retry?: RetryPolicy): KeywordDataProvider | null {
  if (config.dataForSeo) return new DataForSeoKeywordData(config.dataForSeo, retry);
  if (config.googleAds) return new GoogleAdsKeywordData(config.googleAds, retry);
  return null;
}
