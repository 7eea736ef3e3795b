import type { SerpFetchOutcome, SerpRequest } from '@rank/serp/fetcher';
import type { SerpSource } from '@rank/serp/sources';
import { fetchJson } from '../shared/fetch-json';
import { asArray, asNumber, asObject, type JsonObject } from '../shared/json-shape';
import { UpstreamError } from '../shared/upstream-error';
import { aiOverviewFrom, organicFrom, serpApiFailure } from '../shared/serp-outcome';

const PROVIDER = 'serpapi';
const PAGE_SIZE = 10;
/** Google shows fewer than ten organic results on some pages: two spare pages still reach the depth. */
const SPARE_PAGES = 2;
/** SerpApi's answer when Google found nothing: a valid "not ranking", not a failure. */
const NO_RESULTS = /hasn't returned any results/i;

export interface SerpApiOptions {
  apiKey: string;
  /** `SERPAPI_BASE_URL`, default https://serpapi.com. */
  baseUrl: string;
  timeoutMs: number;
}

/**
 * The `serpapi` source: SerpApi's Google Search API, `GET /search.json?engine=google&q&gl&hl&start&num`,
 * one search a result page of ten (Google ignores larger `num` values), following pages until the
 * depth or the last page. `organic_results` are taken in `position` order and renumbered across
 * pages; the first page's `ai_overview.references` become the AI Overview's sources.
 */
export class SerpApiSource implements SerpSource {
  readonly name = 'serpapi' as const;

  constructor(private readonly options: SerpApiOptions) {}

  async fetchSerp(request: SerpRequest): Promise<SerpFetchOutcome> {
    const items: { url: string; title: string; snippet: string }[] = [];
    let references: { url: string; title: string }[] = [];
    let pagesRead = 0;
    try {
      for (let page = 0; page < request.depth / PAGE_SIZE + SPARE_PAGES && items.length < request.depth; page++) {
        const answer = await this.search(request, page * PAGE_SIZE);
        pagesRead++;
        if (answer === 'no-results') break;
        if (page === 0) references = answer.references;
        const before = new Set(items.map((item) => item.url));
        const fresh = answer.organic.filter((item) => !before.has(item.url));
        items.push(...fresh);
        if (!answer.hasNext || fresh.length === 0) break;
      }
    } catch (error) {
      return { ...serpApiFailure(error, PROVIDER), pagesRead };
    }
    return { kind: 'success', organic: organicFrom(items, request.depth), aiOverview: aiOverviewFrom(references), pagesRead };
  }

  async close(): Promise<void> {
    // Nothing is kept open between calls.
  }

  private async search(request: SerpRequest, start: number) {
    const url = new URL(`${this.options.baseUrl}/search.json`);
    url.searchParams.set('engine', 'google');
    url.searchParams.set('q', request.keyword);
    url.searchParams.set('gl', request.geoCode.toLowerCase());
    url.searchParams.set('hl', request.langCode);
    url.searchParams.set('start', String(start));
    url.searchParams.set('num', String(PAGE_SIZE));
    url.searchParams.set('api_key', this.options.apiKey);
    const response = await fetchJson({ provider: PROVIDER, method: 'GET', url, timeoutMs: this.options.timeoutMs });
    return pageOf(response.status, response.body);
  }
}

function pageOf(status: number, body: unknown) {
  const answer = asObject(body);
  const error = typeof answer?.error === 'string' ? answer.error : undefined;
  if (error && status < 400 && NO_RESULTS.test(error)) return 'no-results' as const;
  if (status >= 400 || error) {
    throw new UpstreamError(
      PROVIDER,
      'http',
      `/search.json answered ${status}: ${(error ?? 'no error message').slice(0, 200)}`,
      status >= 400 ? status : 400,
    );
  }
  const metadata = asObject(answer?.search_metadata);
  if (!answer || !metadata) throw new UpstreamError(PROVIDER, 'malformed', '/search.json answered without search_metadata');
  const results = answer.organic_results === undefined ? [] : asArray(answer.organic_results);
  if (!results) throw new UpstreamError(PROVIDER, 'malformed', '/search.json answered organic_results that are not a list');
  const organic = results
    .map(asObject)
    .filter((item): item is JsonObject => item !== undefined && typeof item.link === 'string')
    .map((item) => ({
      rank: asNumber(item.position) ?? Number.MAX_SAFE_INTEGER,
      url: item.link as string,
      title: text(item.title),
      snippet: text(item.snippet),
    }))
    .sort((a, b) => a.rank - b.rank);
  const references = (asArray(asObject(answer.ai_overview)?.references) ?? [])
    .map(asObject)
    .filter((reference): reference is JsonObject => reference !== undefined)
    .map((reference) => ({ url: text(reference.link), title: text(reference.title) }))
    .filter((reference) => reference.url !== '');
  const hasNext = typeof asObject(answer.serpapi_pagination)?.next === 'string' || typeof asObject(answer.pagination)?.next === 'string';
  return { organic, references, hasNext };
}

const text = (value: unknown): string => (typeof value === 'string' ? value : '');
