import type { CheerioAPI } from 'cheerio';
import { collapseWhitespace } from './html-text';

/**
 * Recognises Google's EU cookie-consent interstitial ("Before you continue to Google"), which Google
 * serves from EU addresses instead of results when the browser has no consent cookie. It comes in
 * three forms:
 * - a redirect of the search to `consent.google.<tld>/ml?continue=…` (or `/m?continue=…`, the
 *   no-JavaScript page): recognised by the URL the browser ended on;
 * - a page whose "Reject all" / "Accept all" buttons sit in forms posting to
 *   `https://consent.google.<tld>/save` (older in-page dialogs framed `consent.google.<tld>`);
 * - the in-page dialog (`[role=dialog]`) whose buttons are wired by script, with no form in the HTML.
 *
 * The in-page dialog also overlays real result pages (the 2023 desktop pages in
 * scraper/test-fixtures/serp/ carry it above their results), so the page signs count only when the
 * page has nothing else to read; the caller checks results and "no results" first.
 */

/** `consent.google.com`, `consent.google.de`, `consent.google.co.uk`…, and YouTube's twin. */
const CONSENT_HOST = /^consent\.(google\.[a-z]{2,3}(\.[a-z]{2})?|youtube\.com)$/i;

/** The buttons of the dialog, in the languages the scraper queries most (whole button text). */
const ACCEPT_OR_REJECT_ALL =
  /^(accept all|reject all|alle akzeptieren|alle ablehnen|tout accepter|tout refuser|aceptar todo|rechazar todo|accetta tutto|rifiuta tutto|alles accepteren|alles afwijzen|aceitar tudo|rejeitar tudo)$/i;

/** When the browser ended on Google's consent service: what to say about it, else `null`. */
export function consentRedirectDetail(url: string): string | null {
  const consent = consentServiceUrl(url);
  return consent ? `the browser was sent to ${consent.hostname}${consent.pathname}` : null;
}

/**
 * When the document is (or shows) Google's consent interstitial: what gave it away, else `null`.
 * Not conclusive on a page that also holds results (see above).
 */
export function detectConsentPage($: CheerioAPI): string | null {
  for (const form of $('form[action]').toArray()) {
    const action = consentServiceUrl($(form).attr('action') ?? '');
    if (action) return `a form posting to ${action.hostname}${action.pathname}`;
  }
  for (const frame of $('iframe[src]').toArray()) {
    const source = consentServiceUrl($(frame).attr('src') ?? '');
    if (source) return `a frame of ${source.hostname}`;
  }
  const button = $('[role="dialog"]')
    .find('button, [role="button"], input[type="submit"]')
    .toArray()
    .map((element) => collapseWhitespace($(element).text() || ($(element).attr('value') ?? '')))
    .find((text) => ACCEPT_OR_REJECT_ALL.test(text));
  return button ? `a dialog with a "${button}" button` : null;
}

/**
 * The link as a URL when it is an absolute (or protocol-relative) link to the consent service. A
 * relative link says nothing: on a consent page it is the page's own URL that tells.
 */
function consentServiceUrl(link: string): URL | undefined {
  const text = link.trim();
  if (!/^(https?:)?\/\//i.test(text)) return undefined;
  try {
    const url = new URL(text, 'https://www.google.com/');
    return CONSENT_HOST.test(url.hostname) ? url : undefined;
  } catch {
    return undefined;
  }
}
