import { extractAiOverviewSources } from './ai-overview';
import { detectBlockPage } from './block-page';
import { loadSerpHtml } from './load-serp-html';
import { extractOrganicResults } from './organic-results';
import { hasResultsArea, isGoogleSearchPage, isNoResultsPage } from './page-recognition';
import { hasNextPage } from './pagination';
import type { SerpPage } from './serp-page';

/**
 * Reads one saved Google result page (any layout: desktop 2019–2025, mobile, basic HTML, pages with
 * 100 results, pages rendered by a headless browser).
 *
 * The verdicts are ordered so that a failure is never read as "not ranking":
 * 1. a block page (captcha, "unusual traffic", JavaScript challenge) is `blocked`;
 * 2. a page that is not a Google result page is `unrecognised`;
 * 3. a result page with organic results is `results`;
 * 4. one without, that says Google found nothing, is `no-results`;
 * 5. one without, that does not say so, is `unrecognised`: its layout is one the parser does not
 *    know, and "0 results" would be a silent wrong answer.
 */
export function parseSerpPage(html: string): SerpPage {
  const $ = loadSerpHtml(html);
  const resultsArea = hasResultsArea($);

  const blockReason = detectBlockPage($, resultsArea);
  if (blockReason !== null) return { kind: 'blocked', reason: blockReason };

  if (!isGoogleSearchPage($, resultsArea)) {
    return {
      kind: 'unrecognised',
      detail: resultsArea
        ? 'the page has a results column but no Google search box; not a Google result page'
        : 'not a Google result page: no results column (#search, #rso, #center_col or basic-HTML #main)',
    };
  }

  const organic = extractOrganicResults($);
  if (organic.length > 0) {
    return { kind: 'results', organic, aiOverview: extractAiOverviewSources($), hasNextPage: hasNextPage($) };
  }
  if (isNoResultsPage($)) return { kind: 'no-results' };
  return {
    kind: 'unrecognised',
    detail: 'a Google result page with no organic result and no "no results" message: an unknown layout',
  };
}
