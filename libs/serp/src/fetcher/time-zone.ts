/**
 * The time zone the browser claims for a check: one of the searched country's, as a person there
 * would have. A page whose language says Austria while its clock says UTC (the server's) is an
 * easy mark for a search engine that compares the two.
 */

/**
 * The zone where most people live, for the countries that have more than one. ICU lists a
 * country's zones alphabetically (the US starts with `America/Adak`), so its first is no guide.
 * Names as ICU spells them, which may be the older alias (`Europe/Kiev`); Chromium takes either.
 */
const MAIN_ZONES: Readonly<Record<string, string>> = {
  AR: 'America/Buenos_Aires',
  AU: 'Australia/Sydney',
  BR: 'America/Sao_Paulo',
  CA: 'America/Toronto',
  CD: 'Africa/Kinshasa',
  CL: 'America/Santiago',
  CN: 'Asia/Shanghai',
  CY: 'Asia/Nicosia',
  DE: 'Europe/Berlin',
  EC: 'America/Guayaquil',
  ES: 'Europe/Madrid',
  FM: 'Pacific/Ponape',
  GL: 'America/Godthab',
  ID: 'Asia/Jakarta',
  KI: 'Pacific/Tarawa',
  KZ: 'Asia/Almaty',
  MH: 'Pacific/Majuro',
  MN: 'Asia/Ulaanbaatar',
  MX: 'America/Mexico_City',
  MY: 'Asia/Kuala_Lumpur',
  NZ: 'Pacific/Auckland',
  PF: 'Pacific/Tahiti',
  PG: 'Pacific/Port_Moresby',
  PS: 'Asia/Hebron',
  PT: 'Europe/Lisbon',
  RU: 'Europe/Moscow',
  UA: 'Europe/Kiev',
  UM: 'Pacific/Wake',
  US: 'America/New_York',
  UZ: 'Asia/Tashkent',
};

/** What `Intl.Locale` knows of a region's zones: a getter in Node 20, a method in later engines. */
interface LocaleTimeZones {
  timeZones?: string[];
  getTimeZones?: () => string[] | undefined;
}

/** The zones ICU knows for a country (ISO 3166-1 alpha-2, any case), alphabetically; none for a code that is no region. */
export function countryTimeZones(geoCode: string): readonly string[] {
  try {
    const locale = new Intl.Locale(`und-${geoCode.toUpperCase()}`) as Intl.Locale & LocaleTimeZones;
    return locale.getTimeZones?.() ?? locale.timeZones ?? [];
  } catch {
    return []; // not a region subtag at all
  }
}

/**
 * The IANA zone for a country (ISO 3166-1 alpha-2, any case): its main zone, or the one zone ICU
 * knows for it. `undefined` when ICU knows none (Antarctica, Bouvet Island, a code that is no
 * country): the browser then keeps the machine's own zone.
 */
export function browserTimeZone(geoCode: string): string | undefined {
  const main = MAIN_ZONES[geoCode.toUpperCase()];
  if (main) return main;
  const zones = countryTimeZones(geoCode);
  return zones.length === 1 ? zones[0] : undefined;
}
