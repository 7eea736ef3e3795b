import { isIP } from 'node:net';
import type { ContextCookie } from './page-loader';

/**
 * Google's `SOCS` cookie, which records a visitor's choice on its EU cookie-consent page. Without
 * it, a search from an EU address is answered with the consent interstitial (a redirect to
 * consent.google.com/ml?continue=…, or a dialog) instead of results; with it, Google serves results.
 *
 * The value is the one Google sets after "Reject all" (English UI), a constant that open-source
 * scrapers and privacy front ends (Whoogle among them) send for the same purpose. It is base64url
 * protobuf: field 1 = 1, then { 1, the consent UI build "gws_20230810-0_RC2", language "en", 1 }
 * and the time of the choice (2023-08-16). "Reject all" because the scraper wants nothing
 * personalised (it also asks `pws=0`).
 */
export const GOOGLE_CONSENT_SOCS = 'CAESHAgBEhJnd3NfMjAyMzA4MTAtMF9SQzIaAmVuIAEaBgiAo_CmBg';

/**
 * The consent cookie for the host of `baseUrl` (`GOOGLE_BASE_URL`), for every new browser context.
 *
 * For a named host it is a domain cookie, as Google's own is: `www.google.de` gets one for
 * `.google.de`, which also covers `google.de` (and its redirect to `www.`) and `consent.google.de`.
 * An IP address or a one-label name (a local test server) can only hold a cookie for itself.
 * `Secure` only over HTTPS, or Chromium would not send it to a plain-HTTP test server.
 */
export function googleConsentCookies(baseUrl: string): ContextCookie[] {
  const url = new URL(baseUrl);
  const cookie = { name: 'SOCS', value: GOOGLE_CONSENT_SOCS, secure: url.protocol === 'https:', sameSite: 'Lax' as const };
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host) !== 0 || !host.includes('.')) return [{ ...cookie, url: `${url.origin}/` }];
  return [{ ...cookie, domain: `.${host.replace(/^www\./i, '')}`, path: '/' }];
}
