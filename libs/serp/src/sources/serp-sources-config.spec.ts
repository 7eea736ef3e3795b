import { serpSourcesConfigFromEnv } from './serp-sources-config';

const read = (env: Record<string, string>) => {
  const problems: string[] = [];
  return { config: serpSourcesConfigFromEnv(env, problems), problems };
};

it('uses the browser alone when SERP_SOURCES is unset', () => {
  expect(read({})).toEqual({ config: { order: ['browser'], apiTimeoutMs: 60_000 }, problems: [] });
});

it('reads the sources in order, with what each needs and the default origins', () => {
  const { config, problems } = read({
    SERP_SOURCES: ' browser, fetch-api ,DataForSEO,serpapi',
    SERP_FETCH_URL_TEMPLATE: 'https://api.scraperapi.com/?api_key=secret-key&url={url}',
    DATAFORSEO_LOGIN: 'me@example.com',
    DATAFORSEO_PASSWORD: 'pw',
    SERPAPI_API_KEY: 'serp-key',
  });
  expect(problems).toEqual([]);
  expect(config).toEqual({
    order: ['browser', 'fetch-api', 'dataforseo', 'serpapi'],
    fetchUrlTemplate: 'https://api.scraperapi.com/?api_key=secret-key&url={url}',
    dataForSeo: { login: 'me@example.com', password: 'pw', baseUrl: 'https://api.dataforseo.com' },
    serpApi: { apiKey: 'serp-key', baseUrl: 'https://serpapi.com' },
    apiTimeoutMs: 60_000,
  });
});

it('names every bad variable, never the secrets in them', () => {
  const { problems } = read({
    SERP_SOURCES: 'browser,bing,browser,fetch-api,dataforseo,serpapi',
    SERP_FETCH_URL_TEMPLATE: 'https://api.example.com/?api_key=secret-key',
    SERPAPI_BASE_URL: 'ftp://serpapi.com',
  });
  expect(problems).toEqual([
    'SERP_SOURCES lists "bing"; the sources are browser, fetch-api, dataforseo, serpapi',
    'SERP_SOURCES lists "browser" twice',
    'SERP_FETCH_URL_TEMPLATE must contain {url} where the Google URL goes, e.g. https://api.example.com/?api_key=KEY&url={url}',
    'SERP_SOURCES lists dataforseo: set DATAFORSEO_LOGIN and DATAFORSEO_PASSWORD (your API credentials)',
    'SERP_SOURCES lists serpapi: set SERPAPI_API_KEY',
    'SERPAPI_BASE_URL must be an http(s) URL (got "ftp://serpapi.com")',
  ]);
  expect(problems.join('\n')).not.toContain('secret-key');
  expect(read({ SERP_SOURCES: 'fetch-api' }).problems).toEqual([
    expect.stringMatching(/^SERP_SOURCES lists fetch-api: set SERP_FETCH_URL_TEMPLATE/),
  ]);
});

it('checks nothing of a source that is not listed', () => {
  expect(read({ SERP_SOURCES: 'browser', SERP_FETCH_URL_TEMPLATE: 'nonsense', DATAFORSEO_BASE_URL: 'nonsense' }).problems).toEqual([]);
});
