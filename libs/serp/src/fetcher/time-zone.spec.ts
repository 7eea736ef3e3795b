import { COUNTRY_CODES } from '@rank/domain/iso-codes';
import { browserTimeZone, countryTimeZones } from './time-zone';

describe('browserTimeZone', () => {
  it("gives a country's one zone, in any case", () => {
    expect(browserTimeZone('at')).toBe('Europe/Vienna');
    expect(browserTimeZone('GB')).toBe('Europe/London');
    expect(browserTimeZone('jp')).toBe('Asia/Tokyo');
  });

  it('gives the zone where most people live for a country with several, not the first of the alphabet', () => {
    expect(browserTimeZone('us')).toBe('America/New_York');
    expect(browserTimeZone('AU')).toBe('Australia/Sydney');
    expect(browserTimeZone('ru')).toBe('Europe/Moscow');
    expect(browserTimeZone('de')).toBe('Europe/Berlin');
  });

  it('gives every country a zone of its own, except the three where nobody keeps a clock of theirs', () => {
    const without = [...COUNTRY_CODES].filter((country) => browserTimeZone(country) === undefined);
    expect(without).toEqual(['AQ', 'BV', 'HM']);
    // A main zone spelled wrong, or a country that ICU split into several zones since, shows here.
    const foreign = [...COUNTRY_CODES].filter((country) => {
      const zone = browserTimeZone(country);
      return zone !== undefined && !countryTimeZones(country).includes(zone);
    });
    expect(foreign).toEqual([]);
  });

  it('gives no zone for a code that is no country, so the machine keeps its own', () => {
    expect(browserTimeZone('ZZ')).toBeUndefined();
    expect(browserTimeZone('not a region')).toBeUndefined();
  });
});
