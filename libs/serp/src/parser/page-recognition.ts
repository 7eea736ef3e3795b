import type { CheerioAPI } from 'cheerio';
import { collapseWhitespace } from './html-text';

/**
 * Whether the page has the column Google puts results in: `#search`/`#rso`/`#center_col` on the
 * JavaScript layouts (desktop and mobile, 2019–2025), or, on basic-HTML pages, `#main` holding
 * Google's `/url?q=` result redirects.
 */
export function hasResultsArea($: CheerioAPI): boolean {
  if ($('#search, #rso, #center_col, #res').length > 0) return true;
  return $('#main').find('a[href^="/url?"]').length > 0;
}

/**
 * Whether the page is a Google Search page at all: every layout has the search box (`q`, in a form
 * that submits to `/search`) besides the results area. A page of another site, an error page or an
 * empty document has neither. `resultsArea` is {@link hasResultsArea}, when the caller has it.
 */
export function isGoogleSearchPage($: CheerioAPI, resultsArea: boolean = hasResultsArea($)): boolean {
  return resultsArea && hasSearchBox($);
}

/** Google's search box (`q`, in a form that submits to `/search`): on every result page, on no block page. */
export function hasSearchBox($: CheerioAPI): boolean {
  return $('input[name="q"], textarea[name="q"], form[action$="/search"]').length > 0;
}

/**
 * Whether the page reaches Google's footer, which every result page ends with, after its results and
 * its pager: `#footcnt`/`#fbar` with `role=contentinfo` (desktop and mobile, 2019–2025) or `footer`
 * (basic HTML, the 2021 smartphone page). A page cut short (a proxy or an API that ended the body
 * early) lacks it, and its results would be a partial list: with the pager cut off too, the last
 * result read would pass for the end of Google's list, and a site below it for "not ranking".
 */
export function reachesPageEnd($: CheerioAPI): boolean {
  return $('#footcnt, #fbar, [role="contentinfo"], footer').length > 0;
}

/**
 * Google's "did not match any documents" message, in the languages the scraper queries most. It sits
 * in `#topstuff .card-section` (desktop 2023) or `#botstuff .mnr-c` (2026) as a `p[role=heading]`.
 */
const NO_RESULTS_MESSAGE =
  /did not match any (documents|results)|no results found for|ne correspond à aucun document|aucun document ne correspond|ergab keine (treffer|übereinstimmungen)|keine übereinstimmenden dokumente|no (ha )?(obtuvo|ha obtenido|produjo) ningún resultado|no se han encontrado resultados|non ha prodotto risultati|gav inga träffar|matchade inga dokument|não encontrou nenhum documento|leverde geen resultaten|nie pasuje do żadnego dokumentu/i;

/**
 * Whether Google says the query found nothing (a valid "not ranking" answer, not a failure). Only
 * the message itself counts: a page that merely lacks results is a parser failure until proven
 * otherwise, and in a language not listed above it is reported as unrecognised, never as
 * "no results".
 */
export function isNoResultsPage($: CheerioAPI): boolean {
  const messageHeadings = $('#topstuff p[role="heading"], #botstuff p[role="heading"]').toArray();
  if (messageHeadings.some((heading) => NO_RESULTS_MESSAGE.test(collapseWhitespace($(heading).text())))) return true;
  // Basic HTML and mobile pages print the message without the heading role.
  return NO_RESULTS_MESSAGE.test(collapseWhitespace($('#center_col, #main').first().text()));
}
