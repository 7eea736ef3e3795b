import { Env, envReader } from '@rank/domain/env-reader';
import { isSerpSourceName, SERP_SOURCE_NAMES, type SerpSourceName } from './serp-source';
import { URL_PLACEHOLDER } from './fetch-api-page-loader';

/** Which sources a check tries, in order, and what each needs. */
export interface SerpSourcesConfig {
  /** `SERP_SOURCES`, in order; `browser` alone by default. */
  order: SerpSourceName[];
  /** `SERP_FETCH_URL_TEMPLATE`: required when `fetch-api` is listed. */
  fetchUrlTemplate?: string;
  /** `DATAFORSEO_LOGIN`, `DATAFORSEO_PASSWORD`, `DATAFORSEO_BASE_URL`: required when `dataforseo` is listed. */
  dataForSeo?: { login: string; password: string; baseUrl: string };
  /** `SERPAPI_API_KEY`, `SERPAPI_BASE_URL`: required when `serpapi` is listed. */
  serpApi?: { apiKey: string; baseUrl: string };
  /** How long one call to a SERP API may take, body included. */
  apiTimeoutMs: number;
}

export const DEFAULT_DATAFORSEO_BASE_URL = 'https://api.dataforseo.com';
export const DEFAULT_SERPAPI_BASE_URL = 'https://serpapi.com';
/** DataForSEO's live mode averages about 6 s a call; a 100-deep page can take several times that. */
const API_TIMEOUT_MS = 60_000;

/**
 * Reads `SERP_SOURCES` and what the listed sources need. Every problem is named with its variable;
 * the caller reports them all at start. A variable of a source that is not listed is not checked.
 */
export function serpSourcesConfigFromEnv(env: Env, problems: string[]): SerpSourcesConfig {
  const raw = env.SERP_SOURCES?.trim();
  const names = raw
    ? raw
        .split(',')
        .map((name) => name.trim().toLowerCase())
        .filter((name) => name !== '')
    : ['browser'];
  const order: SerpSourceName[] = [];
  for (const name of names) {
    if (!isSerpSourceName(name)) problems.push(`SERP_SOURCES lists "${name}"; the sources are ${SERP_SOURCE_NAMES.join(', ')}`);
    else if (order.includes(name)) problems.push(`SERP_SOURCES lists "${name}" twice`);
    else order.push(name);
  }
  if (raw && names.length === 0) problems.push('SERP_SOURCES is empty; list at least one of ' + SERP_SOURCE_NAMES.join(', '));
  const config: SerpSourcesConfig = { order: order.length > 0 ? order : ['browser'], apiTimeoutMs: API_TIMEOUT_MS };

  // Base URLs are read as every URL variable is (envReader), in one wording with the other parts'.
  const urls = envReader(env);
  if (order.includes('fetch-api')) config.fetchUrlTemplate = readTemplate(env, problems);
  if (order.includes('dataforseo')) {
    const login = env.DATAFORSEO_LOGIN?.trim();
    const password = env.DATAFORSEO_PASSWORD?.trim();
    if (!login || !password)
      problems.push('SERP_SOURCES lists dataforseo: set DATAFORSEO_LOGIN and DATAFORSEO_PASSWORD (your API credentials)');
    config.dataForSeo = {
      login: login ?? '',
      password: password ?? '',
      baseUrl: urls.httpUrl('DATAFORSEO_BASE_URL', DEFAULT_DATAFORSEO_BASE_URL),
    };
  }
  if (order.includes('serpapi')) {
    const apiKey = env.SERPAPI_API_KEY?.trim();
    if (!apiKey) problems.push('SERP_SOURCES lists serpapi: set SERPAPI_API_KEY');
    config.serpApi = { apiKey: apiKey ?? '', baseUrl: urls.httpUrl('SERPAPI_BASE_URL', DEFAULT_SERPAPI_BASE_URL) };
  }
  problems.push(...urls.problems);
  return config;
}

function readTemplate(env: Env, problems: string[]): string | undefined {
  const template = env.SERP_FETCH_URL_TEMPLATE?.trim();
  const example = `https://api.example.com/?api_key=KEY&url=${URL_PLACEHOLDER}`;
  if (!template) {
    problems.push(`SERP_SOURCES lists fetch-api: set SERP_FETCH_URL_TEMPLATE, e.g. ${example}`);
    return undefined;
  }
  if (!template.includes(URL_PLACEHOLDER)) {
    problems.push(`SERP_FETCH_URL_TEMPLATE must contain ${URL_PLACEHOLDER} where the Google URL goes, e.g. ${example}`);
    return undefined;
  }
  try {
    const url = new URL(template.split(URL_PLACEHOLDER).join('x'));
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('not http');
  } catch {
    // The template carries a key: the message names the variable, never its value.
    problems.push(`SERP_FETCH_URL_TEMPLATE must be an absolute http(s) URL, e.g. ${example}`);
    return undefined;
  }
  return template;
}
