/** How a check becomes Google result-page URLs and the language a browser should claim. */

/** Google shows ten results per page; `start` steps by this much. */
export const RESULTS_PER_PAGE = 10;

export interface SearchTarget {
  keyword: string;
  /** Country, ISO 3166-1 alpha-2 (`us`, `DE`): Google's `gl`. */
  geoCode: string;
  /** Interface language (`en`, `pt-BR`): Google's `hl`. */
  langCode: string;
}

/** `GET {baseUrl}/search?q=…&hl=…&gl=…[&start=…]&pws=0`; the first page carries no `start`, as a person's would. */
export function buildSearchUrl(baseUrl: string, target: SearchTarget, start: number): string {
  const url = new URL(`${baseUrl.replace(/\/+$/, '')}/search`);
  url.searchParams.set('q', target.keyword);
  url.searchParams.set('hl', target.langCode);
  url.searchParams.set('gl', target.geoCode.toLowerCase());
  if (start > 0) url.searchParams.set('start', String(start));
  // No personalisation from the context's cookies: a rank is the same for every checker.
  url.searchParams.set('pws', '0');
  return url.toString();
}

/** BCP 47 locale for the browser, e.g. `de-AT` for hl=de, gl=at; `pt-BR` stays as given. */
export function browserLocale(target: Pick<SearchTarget, 'geoCode' | 'langCode'>): string {
  const [language, region] = target.langCode.split(/[-_]/);
  return `${language.toLowerCase()}-${(region ?? target.geoCode).toUpperCase()}`;
}

/**
 * Languages for Chromium's Accept-Language override: `de-AT,de`. Chromium adds the q-values
 * itself, so none are written here.
 */
export function acceptLanguages(target: Pick<SearchTarget, 'geoCode' | 'langCode'>): string {
  const locale = browserLocale(target);
  const language = locale.split('-')[0];
  return `${locale},${language}`;
}
