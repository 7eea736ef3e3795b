import type { CheerioAPI } from 'cheerio';
import { hasSearchBox } from './page-recognition';
import type { BlockReason } from './serp-page';

/**
 * Recognises the pages Google serves instead of results when it refuses a query. Such a page is a
 * failed check: reading it as "no organic results" would report "not ranking" for every keyword.
 *
 * Only `form#captcha-form` and `[data-sitekey]` are conclusive on their own: they exist only on
 * Google's /sorry/ pages. The other two signs also occur on real result pages, so they count only
 * when the page has no results area:
 * - real result pages rendered in 2025 carry the same `<noscript>` redirect to
 *   `/httpservice/retry/enablejs` that makes up the whole JavaScript-challenge page, which has no
 *   search box either: a page with one is a result page whose column the parser does not know
 *   (unrecognised), not a block that would rest the egress for every check;
 * - "unusual traffic" can be the text of a snippet.
 */
export function detectBlockPage($: CheerioAPI, hasResultsArea: boolean): BlockReason | null {
  // The reCAPTCHA page on /sorry/index (2020–2026): a form with the reCAPTCHA widget.
  if ($('form#captcha-form, [data-sitekey], .g-recaptcha').length > 0) return 'captcha';
  if (hasResultsArea) return null;

  const noscriptRedirect = $('noscript')
    .toArray()
    .some((element) => ($(element).html() ?? '').includes('/httpservice/retry/enablejs'));
  const enableJs = noscriptRedirect || $('a[href*="/httpservice/retry/enablejs"], meta[content*="/httpservice/retry/enablejs"]').length > 0;
  if (enableJs && !hasSearchBox($)) {
    return 'javascript-challenge';
  }

  // The /sorry/ page without a widget (rate limit): "Our systems have detected unusual traffic…".
  if (/unusual traffic from your computer network|detected unusual traffic/i.test($('body').text())) {
    return 'unusual-traffic';
  }
  return null;
}
