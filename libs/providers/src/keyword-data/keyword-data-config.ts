import { Env, envReader } from '@rank/domain/env-reader';
/** DataForSEO API credentials (HTTP Basic) and where the API is. */
export interface DataForSeoConfig {
  login: string;
  password: string;
  baseUrl: string;
}

/** A Google Ads account's API access: OAuth client and refresh token, developer token, customer. */
export interface GoogleAdsConfig {
  developerToken: string;
  clientId: string;
  clientSecret: string;
  refreshToken: string;
  /** The account the Keyword Planner calls run in, 10 digits without dashes. */
  customerId: string;
  /** The manager account the OAuth user reaches the customer through, when it does (GOOGLE_ADS_LOGIN_CUSTOMER_ID). */
  loginCustomerId: string | undefined;
  /** Origin of the API, without the version (GOOGLE_ADS_BASE_URL). */
  baseUrl: string;
  /** Google's OAuth 2.0 token endpoint (GOOGLE_OAUTH_TOKEN_URL). */
  tokenUrl: string;
}

/** An OpenAI-compatible chat/completions server. */
export interface LlmConfig {
  /** Up to and including the version, e.g. https://api.openai.com/v1 or http://localhost:11434/v1. */
  baseUrl: string;
  /** Optional: local servers (Ollama, llama.cpp) take none. */
  apiKey: string | undefined;
  model: string;
}

/** The keyword providers; undefined means not configured. */
export interface KeywordProvidersConfig {
  dataForSeo: DataForSeoConfig | undefined;
  googleAds: GoogleAdsConfig | undefined;
  llm: LlmConfig | undefined;
}

export const DEFAULT_DATAFORSEO_BASE_URL = 'https://api.dataforseo.com';
export const DEFAULT_GOOGLE_ADS_BASE_URL = 'https://googleads.googleapis.com';
export const DEFAULT_GOOGLE_OAUTH_TOKEN_URL = 'https://oauth2.googleapis.com/token';
export const DEFAULT_OPENAI_BASE_URL = 'https://api.openai.com/v1';
export const DEFAULT_OPENAI_MODEL = 'gpt-4o-mini';

const GOOGLE_ADS_REQUIRED = [
  'GOOGLE_ADS_DEVELOPER_TOKEN',
  'GOOGLE_ADS_CLIENT_ID',
  'GOOGLE_ADS_CLIENT_SECRET',
  'GOOGLE_ADS_REFRESH_TOKEN',
  'GOOGLE_ADS_CUSTOMER_ID',
] as const;

/**
 * Reads DATAFORSEO_*, GOOGLE_ADS_*, GOOGLE_OAUTH_TOKEN_URL and OPENAI_*. A half-configured
 * provider (a login without its password, some of the five Google Ads variables) is a problem
 * rather than silently no provider, since the operator clearly meant to use it. Problems name the
 * variable, never a secret's value.
 */
export function keywordProvidersConfigFromEnv(env: Env): { config: KeywordProvidersConfig; problems: string[] } {
  const { problems, get, httpUrl: url } = envReader(env);

  const login = get('DATAFORSEO_LOGIN');
  const password = get('DATAFORSEO_PASSWORD');
  const dataForSeoBaseUrl = url('DATAFORSEO_BASE_URL', DEFAULT_DATAFORSEO_BASE_URL);
  let dataForSeo: DataForSeoConfig | undefined;
  if (login !== undefined && password !== undefined) dataForSeo = { login, password, baseUrl: dataForSeoBaseUrl };
  else if (login !== undefined) problems.push('DATAFORSEO_PASSWORD must be set with DATAFORSEO_LOGIN (your DataForSEO API password)');
  else if (password !== undefined) problems.push('DATAFORSEO_LOGIN must be set with DATAFORSEO_PASSWORD (your DataForSEO API login)');

  const googleAdsBaseUrl = url('GOOGLE_ADS_BASE_URL', DEFAULT_GOOGLE_ADS_BASE_URL);
  const tokenUrl = url('GOOGLE_OAUTH_TOKEN_URL', DEFAULT_GOOGLE_OAUTH_TOKEN_URL);
  const missing = GOOGLE_ADS_REQUIRED.filter((name) => get(name) === undefined);
  let googleAds: GoogleAdsConfig | undefined;
  if (missing.length > 0 && missing.length < GOOGLE_ADS_REQUIRED.length) {
    problems.push(`${missing.join(', ')} must be set too: the Google Ads provider needs all of ${GOOGLE_ADS_REQUIRED.join(', ')}`);
  } else if (missing.length === 0) {
    const customerId = customerIdFrom(get('GOOGLE_ADS_CUSTOMER_ID'), 'GOOGLE_ADS_CUSTOMER_ID', problems);
    const loginCustomerId =
      get('GOOGLE_ADS_LOGIN_CUSTOMER_ID') === undefined
        ? undefined
        : customerIdFrom(get('GOOGLE_ADS_LOGIN_CUSTOMER_ID'), 'GOOGLE_ADS_LOGIN_CUSTOMER_ID', problems);
    googleAds = {
      developerToken: get('GOOGLE_ADS_DEVELOPER_TOKEN') as string,
      clientId: get('GOOGLE_ADS_CLIENT_ID') as string,
      clientSecret: get('GOOGLE_ADS_CLIENT_SECRET') as string,
      refreshToken: get('GOOGLE_ADS_REFRESH_TOKEN') as string,
      customerId,
      loginCustomerId,
      baseUrl: googleAdsBaseUrl,
      tokenUrl,
    };
  }

  const llmBaseUrl = get('OPENAI_BASE_URL') === undefined ? undefined : url('OPENAI_BASE_URL', DEFAULT_OPENAI_BASE_URL);
  const apiKey = get('OPENAI_API_KEY');
  const model = get('OPENAI_MODEL');
  let llm: LlmConfig | undefined;
  if (apiKey !== undefined || llmBaseUrl !== undefined) {
    const baseUrl = llmBaseUrl ?? DEFAULT_OPENAI_BASE_URL;
    // Another server's models are not OpenAI's: guessing one would only fail on the first call.
    if (model === undefined && baseUrl !== DEFAULT_OPENAI_BASE_URL)
      problems.push(
        'OPENAI_MODEL must be set when OPENAI_BASE_URL points at another server (the model name that server serves, e.g. llama3.1)',
      );
    llm = { baseUrl, apiKey, model: model ?? DEFAULT_OPENAI_MODEL };
  } else if (model !== undefined) {
    problems.push(
      'OPENAI_MODEL is set but neither OPENAI_API_KEY nor OPENAI_BASE_URL is: set the key for OpenAI, or the base URL of your server',
    );
  }

  return { config: { dataForSeo, googleAds, llm }, problems };
}

/** Google shows customer ids as 123-456-7890; the API wants the 10 digits alone. */
function customerIdFrom(raw: string | undefined, name: string, problems: string[]): string {
  const digits = (raw ?? '').replace(/-/g, '');
  if (!/^\d{10}$/.test(digits)) problems.push(`${name} must be a Google Ads customer id, 10 digits (123-456-7890 or 1234567890)`);
  return digits;
}
