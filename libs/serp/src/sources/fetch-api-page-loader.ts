import { withoutSecrets, withoutSecretsInAnswer } from '@rank/domain/secret-text';
import type { Egress } from '../fetcher/egress-pool';
import type { PageLoader, PageLoadRequest, PageLoadResult } from '../fetcher/page-loader';

/** The scraping API is one egress of its own: it rests after a block page like a proxy does. */
export const FETCH_API_EGRESS: Egress = Object.freeze({ id: 'fetch-api', label: 'scraping API' });

/** The placeholder of `SERP_FETCH_URL_TEMPLATE` that stands for the URL-encoded Google search URL. */
export const URL_PLACEHOLDER = '{url}';

/** `https://api.example.com/?api_key=KEY&url={url}` with the Google URL put in, URL-encoded. */
export function fetchApiUrl(template: string, googleUrl: string): string {
  return template.split(URL_PLACEHOLDER).join(encodeURIComponent(googleUrl));
}

/**
 * A template's origin, for reasons and logs. Its path and query may carry the provider's key (some
 * APIs take it as a path segment), and the credentials part may too.
 */
export const fetchApiLabel = (template: string): string => new URL(template.replace(URL_PLACEHOLDER, 'x')).origin;

/** What of a template may be a key, cut out of the API's error answers (which may quote the request back). */
export function templateSecrets(template: string): string[] {
  const url = new URL(template.split(URL_PLACEHOLDER).join(''));
  // Path segments as written and decoded: an API may quote a key from its path decoded (a space, an é).
  const segments = url.pathname.split('/').flatMap((segment) => {
    try {
      return [segment, decodeURIComponent(segment)];
    } catch {
      return [segment];
    }
  });
  return [...url.searchParams.values(), ...segments, decodeURIComponent(url.username), decodeURIComponent(url.password)];
}

/**
 * Loads a Google result page through a scraping API (ScraperAPI, ScrapingBee, ZenRows…) that
 * answers a GET with the target page's raw HTML. What comes back goes through our parser like a
 * browser's page, block-page detection included: these APIs sometimes hand a captcha page back.
 * Google's own status is passed through by these APIs, so an HTML 403 or 429 is still Google's block;
 * an error in another format (JSON, text) is the API's own (a bad key, credits used up, its timeout)
 * and is reported as a load error naming the API, never as Google's.
 */
export class FetchApiPageLoader implements PageLoader {
  constructor(
    private readonly template: string,
    private readonly timeoutMs: number,
  ) {}

  async load(request: PageLoadRequest): Promise<PageLoadResult> {
    const where = fetchApiLabel(this.template);
    let response: Response;
    let body: string;
    try {
      response = await fetch(fetchApiUrl(this.template, request.url), {
        headers: { accept: 'text/html,application/xhtml+xml', 'accept-language': request.acceptLanguage },
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      body = await response.text();
    } catch (error) {
      // Named, not `instanceof`: fetch's errors may come from another realm (a test runner's sandbox).
      const name = (error as { name?: unknown } | null)?.name;
      if (name === 'TimeoutError' || name === 'AbortError') {
        return { kind: 'timeout', detail: `${where} gave no answer within ${this.timeoutMs} ms` };
      }
      return {
        kind: 'load-error',
        detail: `${where} could not be reached (${withoutSecrets(causeOf(error), templateSecrets(this.template))})`,
      };
    }
    const isHtml = (response.headers.get('content-type') ?? '').includes('html') || /^\s*</.test(body);
    if (!response.ok && !isHtml) {
      // A JSON error may quote the key escaped (`\/`, `\u00e9`): cut as parsed values too.
      const excerpt = withoutSecretsInAnswer(body, templateSecrets(this.template)).replace(/\s+/g, ' ').slice(0, 160);
      return { kind: 'load-error', detail: `${where} answered ${response.status}: ${excerpt}` };
    }
    return { kind: 'loaded', status: response.status, html: body, finalUrl: request.url };
  }

  async close(): Promise<void> {
    // Nothing is kept open between loads.
  }
}

/** fetch wraps the socket's error (`ECONNREFUSED`, `ECONNRESET`) in a generic "fetch failed". */
function causeOf(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown; message?: unknown } } | null)?.cause;
  if (typeof cause?.code === 'string') return cause.code;
  if (typeof cause?.message === 'string') return cause.message;
  return String((error as { message?: unknown } | null)?.message ?? error);
}
