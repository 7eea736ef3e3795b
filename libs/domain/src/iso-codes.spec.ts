import { COUNTRY_CODES, isCountryCode, isLanguageCode, LANGUAGE_CODES } from './iso-codes';

describe('ISO codes', () => {
  it('knows all 249 countries and the 184 two-letter languages', () => {
    expect(COUNTRY_CODES.size).toBe(249);
    expect(LANGUAGE_CODES.size).toBe(184);
  });
  it('accepts real codes in any case and refuses made-up ones', () => {
    expect(isCountryCode('us')).toBe(true);
    expect(isCountryCode('GB')).toBe(true);
    expect(isCountryCode('UK')).toBe(false);
    expect(isCountryCode('XX')).toBe(false);
    expect(isLanguageCode('EN')).toBe(true);
    expect(isLanguageCode('xx')).toBe(false);
  });
});
