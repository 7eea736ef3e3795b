import { COUNTRY_CODES } from './iso-codes';
import { countryLocationCode, countryNumericCode } from './country-numeric-codes';

it('knows the numeric code of every country code we accept, each one distinct', () => {
  const numbers = [...COUNTRY_CODES].map((code) => countryNumericCode(code));
  expect(numbers.filter((n) => n === undefined)).toEqual([]);
  expect(new Set(numbers).size).toBe(COUNTRY_CODES.size);
});

it('gives the Google Ads location code DataForSEO documents for a country', () => {
  expect(countryLocationCode('US')).toBe(2840);
  expect(countryLocationCode('de')).toBe(2276);
  expect(countryLocationCode('GB')).toBe(2826);
  expect(countryLocationCode('XX')).toBeUndefined();
});
