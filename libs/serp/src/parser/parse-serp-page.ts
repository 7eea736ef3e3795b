import { extractAiOverviewSources } from './ai-overview';
import { detectBlockPage } from './block-page';
import { consentRedirectDetail, detectConsentPage } from './consent-page';
import { loadSerpHtml } from './load-serp-html';
import { extractOrganicResults } from './organic-results';
import { hasResultsArea, isGoogleSearchPage, isNoResultsPage, reachesPageEnd } from './page-recognition';
import { hasNextPage } from './pagination';
import type { PageSource, SerpPage } from './serp-page';

/**
 * Reads one saved Google result page (any layout: desktop 2019–2025, mobile, basic HTML, pages with
 * 100 results, pages rendered by a headless browser). `source.url`, when given, is the URL the
 * browser ended on.
 *
 * The verdicts are ordered so that a failure is never read as "not ranking":
 * 1. a page of Google's consent service (by its URL) is `consent`;
 * 2. a block page (captcha, "unusual traffic", JavaScript challenge) is `blocked`;
 * 3. a page without a results column that shows the consent interstitial is `consent`;
 * 4. any other page that is not a Google result page is `unrecognised`;
 * 5. a result page with organic results is `results` (even under the consent dialog, which
 *    overlays real results without hiding them), if it reaches Google's footer; one cut short
 *    before it is `unrecognised`, since its list would stop at the cut;
 * 6. one without, that says Google found nothing, is `no-results`;
 * 7. one without, under the consent dialog, is `consent`;
 * 8. one without, that does not say so, is `unrecognised`: its layout is one the parser does not
 *    know, and "0 results" would be a silent wrong answer.
 */
export function parseSerpPage(html: string, source?: PageSource): SerpPage {
  const redirectedToConsent = source ? consentRedirectDetail(source.url) : null;
  if (redirectedToConsent !== null) return { kind: 'consent', detail: redirectedToConsent };

  const $ = loadSerpHtml(html);
  const resultsArea = hasResultsArea($);

  const blockReason = detectBlockPage($, resultsArea);
  if (blockReason !== null) return { kind: 'blocked', reason: blockReason };

  if (!resultsArea) {
    const consent = detectConsentPage($);
    if (consent !== null) return { kind: 'consent', detail: consent };
  }

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
    if (!reachesPageEnd($)) {
      return {
        kind: 'unrecognised',
        detail: "the page stops before Google's footer (#footcnt, #fbar or footer): cut short, so its results would be a partial list",
      };
    }
    return { kind: 'results', organic, aiOverview: extractAiOverviewSources($), hasNextPage: hasNextPage($) };
  }
  if (isNoResultsPage($)) return { kind: 'no-results' };
  const consent = detectConsentPage($);
  if (consent !== null) return { kind: 'consent', detail: consent };
  return {
    kind: 'unrecognised',
    detail: 'a Google result page with no organic result and no "no results" message: an unknown layout',
  };
}
