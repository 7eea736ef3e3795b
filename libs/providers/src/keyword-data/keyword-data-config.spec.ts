import {
  DEFAULT_DATAFORSEO_BASE_URL,
  DEFAULT_GOOGLE_ADS_BASE_URL,
  DEFAULT_GOOGLE_OAUTH_TOKEN_URL,
  DEFAULT_OPENAI_BASE_URL,
  keywordProvidersConfigFromEnv,
} from './keyword-data-config';

const ADS = {
  GOOGLE_ADS_DEVELOPER_TOKEN: 'dev-token',
  GOOGLE_ADS_CLIENT_ID: 'client.apps.googleusercontent.com',
  GOOGLE_ADS_CLIENT_SECRET: 'client-secret',
  GOOGLE_ADS_REFRESH_TOKEN: 'refresh-token',
  GOOGLE_ADS_CUSTOMER_ID: '123-456-7890',
};

describe('keywordProvidersConfigFromEnv', () => {
  it('nothing set: no provider, no problem', () => {
    expect(keywordProvidersConfigFromEnv({})).toEqual({
      config: { dataForSeo: undefined, googleAds: undefined, llm: undefined },
      problems: [],
    });
  });

  it('DataForSEO with login and password, default base URL', () => {
    const { config, problems } = keywordProvidersConfigFromEnv({ DATAFORSEO_LOGIN: 'me', DATAFORSEO_PASSWORD: 'pw' });
    expect(problems).toEqual([]);
    expect(config.dataForSeo).toEqual({ login: 'me', password: 'pw', baseUrl: DEFAULT_DATAFORSEO_BASE_URL });
  });

  it('a login without its password is a problem naming the missing variable', () => {
    expect(keywordProvidersConfigFromEnv({ DATAFORSEO_LOGIN: 'me' }).problems).toEqual([expect.stringContaining('DATAFORSEO_PASSWORD')]);
  });

  it('base URLs must be http(s); the message names the variable', () => {
    const { problems } = keywordProvidersConfigFromEnv({
      DATAFORSEO_BASE_URL: 'ftp://x',
      GOOGLE_ADS_BASE_URL: 'nope',
      GOOGLE_OAUTH_TOKEN_URL: 'file:///t',
      OPENAI_BASE_URL: 'x',
    });
    expect(problems).toEqual([
      expect.stringMatching(/^DATAFORSEO_BASE_URL must be an http\(s\) URL/),
      expect.stringMatching(/^GOOGLE_ADS_BASE_URL must be an http\(s\) URL/),
      expect.stringMatching(/^GOOGLE_OAUTH_TOKEN_URL must be an http\(s\) URL/),
      expect.stringMatching(/^OPENAI_BASE_URL must be an http\(s\) URL/),
    ]);
  });

  it('Google Ads with all five variables; the customer id loses its dashes', () => {
    const { config, problems } = keywordProvidersConfigFromEnv({ ...ADS, GOOGLE_ADS_LOGIN_CUSTOMER_ID: '999-888-7777' });
    expect(problems).toEqual([]);
    expect(config.googleAds).toEqual({
      developerToken: 'dev-token',
      clientId: 'client.apps.googleusercontent.com',
      clientSecret: 'client-secret',
      refreshToken: 'refresh-token',
      customerId: '1234567890',
      loginCustomerId: '9998887777',
      baseUrl: DEFAULT_GOOGLE_ADS_BASE_URL,
      tokenUrl: DEFAULT_GOOGLE_OAUTH_TOKEN_URL,
    });
  });

  it('some of the Google Ads variables: a problem listing the missing ones, never a value', () => {
    const { config, problems } = keywordProvidersConfigFromEnv({
      GOOGLE_ADS_DEVELOPER_TOKEN: 'secret-dev-token',
      GOOGLE_ADS_CLIENT_ID: 'id',
    });
    expect(config.googleAds).toBeUndefined();
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^GOOGLE_ADS_CLIENT_SECRET, GOOGLE_ADS_REFRESH_TOKEN, GOOGLE_ADS_CUSTOMER_ID must be set too/);
    expect(problems[0]).not.toContain('secret-dev-token');
  });

  it('a customer id that is not 10 digits is a problem', () => {
    expect(keywordProvidersConfigFromEnv({ ...ADS, GOOGLE_ADS_CUSTOMER_ID: '12345' }).problems).toEqual([
      expect.stringContaining('GOOGLE_ADS_CUSTOMER_ID must be a Google Ads customer id'),
    ]);
  });

  it('OpenAI with a key: default base URL and model', () => {
    expect(keywordProvidersConfigFromEnv({ OPENAI_API_KEY: 'sk-x' }).config.llm).toEqual({
      baseUrl: DEFAULT_OPENAI_BASE_URL,
      apiKey: 'sk-x',
      model: 'gpt-4o-mini',
    });
  });

  it('a local server without a key needs its model named', () => {
    expect(keywordProvidersConfigFromEnv({ OPENAI_BASE_URL: 'http://127.0.0.1:11434/v1' }).problems).toEqual([
      expect.stringContaining('OPENAI_MODEL must be set'),
    ]);
    const { config, problems } = keywordProvidersConfigFromEnv({ OPENAI_BASE_URL: 'http://127.0.0.1:11434/v1/', OPENAI_MODEL: 'llama3.1' });
    expect(problems).toEqual([]);
    expect(config.llm).toEqual({ baseUrl: 'http://127.0.0.1:11434/v1', apiKey: undefined, model: 'llama3.1' });
  });

  it('a model without a key or a server is a problem', () => {
    expect(keywordProvidersConfigFromEnv({ OPENAI_MODEL: 'gpt-4o' }).problems).toEqual([
      expect.stringContaining('OPENAI_MODEL is set but'),
    ]);
  });
});
