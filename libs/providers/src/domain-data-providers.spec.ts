import { domainDataProvidersConfigFromEnv } from './domain-data-config';
import { createCruxHistoryProvider, createPageSpeedProvider, createTrafficProvider } from './domain-data-providers';

describe('choosing the domain-data providers from the environment', () => {
  it('uses local Lighthouse and no CrUX or traffic provider when nothing is set', () => {
    const { config, problems } = domainDataProvidersConfigFromEnv({});
    expect(problems).toEqual([]);
    expect(createPageSpeedProvider(config).source).toBe('lighthouse');
    expect(createCruxHistoryProvider(config).configured).toBe(false);
    expect(createTrafficProvider(config).configured).toBe(false);
  });

  it('uses PageSpeed Insights at its default URL when only the key is set', () => {
    const { config } = domainDataProvidersConfigFromEnv({ PAGESPEED_API_KEY: 'k-123' });
    expect(config.pageSpeedInsights).toEqual({ baseUrl: 'https://www.googleapis.com/pagespeedonline/v5', apiKey: 'k-123' });
    expect(createPageSpeedProvider(config).source).toBe('psi');
  });

  it('uses a provider set by its base URL alone, trailing slash dropped', () => {
    const { config } = domainDataProvidersConfigFromEnv({
      PAGESPEED_BASE_URL: 'http://127.0.0.1:9/v5/',
      CRUX_BASE_URL: 'http://127.0.0.1:9/v1',
      SIMILARWEB_BASE_URL: 'http://127.0.0.1:9',
    });
    expect(config.pageSpeedInsights).toEqual({ baseUrl: 'http://127.0.0.1:9/v5', apiKey: undefined });
    expect(createPageSpeedProvider(config).source).toBe('psi');
    expect(createCruxHistoryProvider(config).configured).toBe(true);
    expect(createTrafficProvider(config).configured).toBe(true);
  });

  it('uses the documented default base URLs for keys alone', () => {
    const { config } = domainDataProvidersConfigFromEnv({ CRUX_API_KEY: 'c', SIMILARWEB_API_KEY: 's' });
    expect(config.crux?.baseUrl).toBe('https://chromeuxreport.googleapis.com/v1');
    expect(config.similarweb?.baseUrl).toBe('https://api.similarweb.com');
  });

  it('names each bad variable, without echoing a key', () => {
    const { problems } = domainDataProvidersConfigFromEnv({
      PAGESPEED_BASE_URL: 'ftp://x',
      CRUX_BASE_URL: 'not a url',
      SIMILARWEB_API_KEY: 'has a secret space',
    });
    expect(problems).toEqual([
      'PAGESPEED_BASE_URL must be an http(s) URL (got "ftp://x")',
      'CRUX_BASE_URL must be an http(s) URL (got "not a url")',
      'SIMILARWEB_API_KEY must be printable characters without spaces, at most 512',
    ]);
  });
});
