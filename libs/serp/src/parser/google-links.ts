/**
 * Turning the `href` of a link on a Google result page into the URL of the page it leads to.
 *
 * Google links results in three ways, depending on the layout and on how the page was fetched:
 * directly (`https://example.com/`), through its redirect (`/url?q=https://example.com/&sa=U…` on
 * basic-HTML and some mobile pages; `/url?url=…` on some desktop pages), or to one of its own
 * pages (`/search?…` for a refinement, a local place or a knowledge-panel entity). Only the first
 * two lead off Google's result pages.
 *
 * A result can also be shown through a proxy of Google's: a translated result opens the page in
 * Google Translate (`www-example-com.translate.goog/…`, or `translate.google.com/translate?u=…`),
 * and an AMP result in Google's AMP viewer (`google.com/amp/s/example.com/…`, or the AMP cache
 * `example-com.cdn.ampproject.org/c/s/example.com/…`). The result is still the site's page, so
 * the page behind the proxy is what is stored and matched: read as the proxy's host, a site ranking
 * there was stored as not ranking.
 */

/** Resolves Google's relative links; the host is irrelevant, only path and query are read. */
const GOOGLE_ORIGIN = 'https://www.google.com';

/**
 * Query parameters that only say where a click came from. Two pages that differ only in them are
 * the same page, and keeping them would make the same result look like a new URL on every check.
 */
const TRACKING_PARAMETER_NAMES = new Set([
  'gclid', // Google Ads click id
  'gbraid', // Google Ads (iOS) click id
  'wbraid', // Google Ads (web-to-app) click id
  'dclid', // Display & Video 360 click id
  'gclsrc',
  'fbclid', // Facebook
  'msclkid', // Microsoft Ads
  'yclid', // Yandex
  'mc_cid', // Mailchimp
  'mc_eid',
  'srsltid', // Google Merchant Center, added to organic shopping-site links since 2023
  'ved', // Google's click attribution, when it leaks into a target URL
  '_ga', // Google Analytics cross-domain linker

  '_gl',
  'igshid', // Instagram share id
]);

/** True for `utm_source`, `utm_medium`… and the other names in {@link TRACKING_PARAMETER_NAMES}. */
export function isTrackingParameter(name: string): boolean {
  const lower = name.toLowerCase();
  return lower.startsWith('utm_') || TRACKING_PARAMETER_NAMES.has(lower);
}

/**
 * Drops tracking parameters from an absolute URL and keeps everything else as given: the other
 * parameters in their order, the path's spelling and the fragment. Returns the input unchanged when
 * there is nothing to drop, so URLs Google shows us are not re-encoded needlessly.
 */
export function withoutTrackingParameters(url: string): string {
  const queryStart = url.indexOf('?');
  if (queryStart < 0) return url;
  const fragmentStart = url.indexOf('#', queryStart);
  const query = url.slice(queryStart + 1, fragmentStart < 0 ? undefined : fragmentStart);
  const fragment = fragmentStart < 0 ? '' : url.slice(fragmentStart);
  const pairs = query.split('&');
  const kept = pairs.filter((pair) => {
    if (pair === '') return false;
    const name = pair.split('=', 1)[0] ?? '';
    return !isTrackingParameter(safeDecode(name));
  });
  if (kept.length === pairs.length) return url;
  const base = url.slice(0, queryStart);
  return kept.length === 0 ? `${base}${fragment}` : `${base}?${kept.join('&')}${fragment}`;
}

/** Removes a `#:~:text=` text fragment (a "scroll to this quote" link); other fragments stay. */
export function withoutTextFragment(url: string): string {
  const at = url.indexOf('#:~:');
  return at < 0 ? url : url.slice(0, at);
}

/**
 * The page a Google result link leads to, as an absolute http(s) URL with tracking parameters
 * dropped; null when the link stays on Google's result pages (`/search?…`, `#`, `javascript:`) or
 * is not a web link at all.
 */
export function resultUrlFromHref(href: string | undefined): string | null {
  if (href === undefined) return null;
  const trimmed = href.trim();
  if (trimmed === '' || trimmed.startsWith('#') || /^javascript:/i.test(trimmed)) return null;

  let parsed: URL;
  try {
    parsed = new URL(trimmed, GOOGLE_ORIGIN);
  } catch {
    return null;
  }
  if (isGoogleHost(parsed.hostname) && parsed.pathname === '/url') {
    // Google's click redirect: the target is in `q` (basic HTML, mobile) or `url` (desktop).
    const target = parsed.searchParams.get('q') ?? parsed.searchParams.get('url');
    return target === null ? null : resultUrlFromHref(target);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return null;
  if (isGoogleSearchNavigation(parsed)) return null;
  const proxied = pageBehindProxy(parsed);
  if (proxied !== null) return resultUrlFromHref(proxied);

  // A relative link that was not a redirect is one of Google's own pages.
  if (!/^https?:\/\//i.test(trimmed)) return null;
  return withoutTrackingParameters(trimmed);
}

/** The page a Google Translate or AMP-viewer link shows, or null for any other link. */
function pageBehindProxy(url: URL): string | null {
  const host = url.hostname.toLowerCase();
  if (host.endsWith('.translate.goog')) {
    // The site's host with its dots as `-` and its own `-` doubled; `_x_tr_*` are the proxy's settings.
    const label = host.slice(0, -'.translate.goog'.length);
    const site = label.replace(/--/g, '\0').replace(/-/g, '.').replace(/\0/g, '-');
    const query = [...url.searchParams].filter(([name]) => !name.startsWith('_x_tr_'));
    const search = query.length === 0 ? '' : `?${new URLSearchParams(query).toString()}`;
    const scheme = url.searchParams.get('_x_tr_sch') === 'http' ? 'http' : 'https';
    return `${scheme}://${site}${url.pathname}${search}${url.hash}`;
  }
  if (isGoogleHost(host) && host.startsWith('translate.') && url.pathname === '/translate') return url.searchParams.get('u');
  const amp = isGoogleHost(host) ? /^\/amp\/(s\/)?(.+)$/.exec(url.pathname) : null;
  if (amp) return `${amp[1] ? 'https' : 'http'}://${amp[2]}${url.search}${url.hash}`;
  const cached = host.endsWith('.cdn.ampproject.org') ? /^\/[a-z]\/(s\/)?(.+)$/.exec(url.pathname) : null;
  if (cached) return `${cached[1] ? 'https' : 'http'}://${cached[2]}${url.search}${url.hash}`;
  return null;
}

/** google.com, www.google.fr, google.co.uk… (not googleusercontent.com or blog.google). */
function isGoogleHost(hostname: string): boolean {
  return /(^|\.)google\.[a-z]{2,3}(\.[a-z]{2})?$/i.test(hostname);
}

/**
 * Links that stay inside Google Search: another query, a results tab, a local place. Google's
 * other products (Maps, Account, Docs…) are real results, e.g. for the query "google".
 */
function isGoogleSearchNavigation(url: URL): boolean {
  if (!isGoogleHost(url.hostname)) return false;
  return url.pathname === '/search' || url.pathname.startsWith('/httpservice/') || url.pathname === '/sorry/index';
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}
