import { keywordProvidersConfigFromEnv } from './keyword-data-config';
import { createKeywordDataProvider } from './keyword-data-provider.factory';

const ADS = {
  GOOGLE_ADS_DEVELOPER_TOKEN: 'd',
  GOOGLE_ADS_CLIENT_ID: 'i',
  GOOGLE_ADS_CLIENT_SECRET: 's',
  GOOGLE_ADS_REFRESH_TOKEN: 'r',
  GOOGLE_ADS_CUSTOMER_ID: '1234567890',
};
const DATAFORSEO = { DATAFORSEO_LOGIN: 'l', DATAFORSEO_PASSWORD: 'p' };
const providerFor = (env: Record<string, string>) => createKeywordDataProvider(keywordProvidersConfigFromEnv(env).config);

describe('createKeywordDataProvider', () => {
  it('DataForSEO when its login and password are set, even with Google Ads configured too', () => {
    expect(providerFor(DATAFORSEO)?.source).toBe('dataforseo');
    expect(providerFor({ ...DATAFORSEO, ...ADS })?.source).toBe('dataforseo');
  });

  it('Google Ads when only its five variables are set', () => {
    expect(providerFor(ADS)?.source).toBe('google-ads');
  });

  it('none configured: null', () => {
    expect(providerFor({})).toBeNull();
  });
});
