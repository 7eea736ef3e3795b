import { COUNTRY_CODES } from '@rank/domain/iso-codes';
import { browserTimeZone } from './time-zone';

/** The zones ICU knows for a country, as the running Node has them. */
function icuZones(country: string): string[] {
  const locale = new Intl.Locale(`und-${country}`) as Intl.Locale & { timeZones?: string[]; getTimeZones?: () => string[] };
  return locale.getTimeZones?.() ?? locale.timeZones ?? [];
}

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
      return zone !== undefined && !icuZones(country).includes(zone);
    });
    expect(foreign).toEqual([]);
  });

  it('gives no zone for a code that is no country, so the machine keeps its own', () => {
    expect(browserTimeZone('ZZ')).toBeUndefined();
    expect(browserTimeZone('not a region')).toBeUndefined();
  });
});
