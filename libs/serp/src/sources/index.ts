export { SERP_SOURCE_NAMES, DEFAULT_SERP_SOURCE, isSerpSourceName, type SerpSource, type SerpSourceName } from './serp-source';
export { FailoverSerpSource } from './failover-serp-source';
export { fetchApiSource } from './fetch-api-source';
export { FETCH_API_EGRESS, FetchApiPageLoader, fetchApiUrl, fetchApiLabel } from './fetch-api-page-loader';
export { serpSourcesConfigFromEnv, type SerpSourcesConfig } from './serp-sources-config';
