import type { CheerioAPI } from 'cheerio';
import { collapseWhitespace } from './html-text';

/**
 * How the link to the next result page is labelled, in the languages the scraper queries most.
 * Desktop pager: "Next"; desktop continuous scroll (2022–2023): "More results"; mobile: "More search
 * results"; basic HTML and older mobile: "Next >" with aria-label "Next page".
 */
const NEXT_PAGE_LABEL =
  /^(next( page)?|more( search)? results|suivant|page suivante|plus de résultats|nästa( sida)?|fler (sök)?resultat|weiter|nächste seite|mehr ergebnisse|siguiente|página siguiente|más resultados|successiv[ao]|pagina successiva|altri risultati|próxima|mais resultados|volgende|meer resultaten|następna|dalej)\b/i;

/** The pager's "previous" link, which also carries `start=`. */
const PREVIOUS_PAGE_LABEL = /^(<|‹|«)|\b(prev|previous|précédent|föregående|zurück|vorherige|anterior|precedente|vorige|poprzednia)\b/i;

/**
 * Whether the page links to the next page of results: `a#pnnext` (desktop pager, 2010–2025), or a
 * link to `/search?…start=N` labelled as the next page or ending in an arrow ("Next >",
 * "Suivant >", "Nästa >") in any language.
 */
export function hasNextPage($: CheerioAPI): boolean {
  if ($('a#pnnext[href]').length > 0) return true;
  return $('a[href*="start="]')
    .toArray()
    .some((link) => {
      const href = link.attribs['href'] ?? '';
      if (!/[?&]start=\d+/.test(href) || !/(^|\/)search\?/.test(href)) return false;
      const label = collapseWhitespace(link.attribs['aria-label'] ?? '');
      const text = collapseWhitespace($(link).text());
      if (PREVIOUS_PAGE_LABEL.test(label) || PREVIOUS_PAGE_LABEL.test(text)) return false;
      return NEXT_PAGE_LABEL.test(label) || NEXT_PAGE_LABEL.test(text) || /(>|›|»|→)$/.test(text);
    });
}
