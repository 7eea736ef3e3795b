import { load } from 'cheerio';
import type { SerpPage } from '../../parser/serp-page';

/**
 * Tiny result pages and a parser that reads only them: enough to test paging, retries and blocks
 * without depending on Google's real markup (the real parser has its own tests on saved pages).
 */

export interface FakeResultsPageOptions {
  urls: string[];
  hasNextPage: boolean;
  aiOverviewUrls?: string[];
}

export function fakeResultsPage(options: FakeResultsPageOptions): string {
  const results = options.urls.map((url, i) => `<li><a href="${url}">Result ${i + 1}</a><p>Snippet ${i + 1}</p></li>`).join('');
  const overview = (options.aiOverviewUrls ?? []).map((url) => `<a href="${url}">Source</a>`).join('');
  const next = options.hasNextPage ? '<a id="pnnext" href="/search?start=next">Next</a>' : '';
  return `<!doctype html><html><head><title>fake results</title></head><body><div id="ai-overview">${overview}</div><ol id="organic">${results}</ol>${next}</body></html>`;
}

/** `count` distinct URLs for results `first`..`first + count - 1`. */
export function resultUrls(first: number, count: number): string[] {
  return Array.from({ length: count }, (_, i) => `https://site-${first + i}.example/page`);
}

export const FAKE_CAPTCHA_PAGE =
  '<!doctype html><html><body><form id="captcha-form" action="/sorry/index"><div data-sitekey="x"></div></form></body></html>';
export const FAKE_NO_RESULTS_PAGE = '<!doctype html><html><body><div id="no-results">No results found</div></body></html>';
export const FAKE_UNRECOGNISED_PAGE = '<!doctype html><html><body><h1>Something else entirely</h1></body></html>';

export function parseFakeSerp(html: string): SerpPage {
  const $ = load(html);
  if ($('#captcha-form').length > 0) return { kind: 'blocked', reason: 'captcha' };
  if ($('#no-results').length > 0) return { kind: 'no-results' };
  if ($('#organic').length === 0) return { kind: 'unrecognised', detail: 'no #organic list' };
  const organic = $('#organic li a')
    .toArray()
    .map((link, i) => {
      const url = $(link).attr('href') ?? '';
      return { position: i + 1, url, title: $(link).text(), domain: new URL(url).hostname, snippet: $(link).next('p').text() };
    });
  const aiOverview = $('#ai-overview a')
    .toArray()
    .map((link, i) => {
      const url = $(link).attr('href') ?? '';
      return { position: i + 1, url, title: $(link).text(), domain: new URL(url).hostname };
    });
  return { kind: 'results', organic, aiOverview, hasNextPage: $('#pnnext').length > 0 };
}
