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
 * pages; the first page's `ai_overview.references` become the AI Overview's sources (fetched
 * with the overview's `page_token` when Google sent the overview in a request of its own).
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
        if (page === 0) references = answer.overviewToken === undefined ? answer.references : await this.overview(answer.overviewToken);
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

  /**
   * The AI Overview Google sent in a request of its own: its sources from SerpApi's Google AI
   * Overview API (`engine=google_ai_overview` with the search's `ai_overview.page_token`, which
   * expires minutes after the search, so it is asked at once). A failure fails the search, as a page
   * not read would: recording the check without its overview would lose its sources in silence.
   */
  private async overview(pageToken: string): Promise<{ url: string; title: string }[]> {
    const response = await this.get({ engine: 'google_ai_overview', page_token: pageToken });
    const answer = answerOf(response.status, response.body);
    return answer === 'no-results' ? [] : referencesOf(answer);
  }

  private async search(request: SerpRequest, start: number) {
    const response = await this.get({
      engine: 'google',
      q: request.keyword,
      gl: request.geoCode.toLowerCase(),
      hl: request.langCode,
      start: String(start),
      num: String(PAGE_SIZE),
    });
    return pageOf(response.status, response.body);
  }

  /** One call of `/search.json` with these parameters and the key, which its errors never show. */
  private get(parameters: Record<string, string>) {
    const url = new URL(`${this.options.baseUrl}/search.json`);
    for (const [name, value] of Object.entries(parameters)) url.searchParams.set(name, value);
    url.searchParams.set('api_key', this.options.apiKey);
    return fetchJson({ provider: PROVIDER, method: 'GET', url, timeoutMs: this.options.timeoutMs, secrets: [this.options.apiKey] });
  }
}

/** A SerpApi answer with its `search_metadata`, or "no results"; throws for an error or a malformed answer. */
function answerOf(status: number, body: unknown): JsonObject | 'no-results' {
  const answer = asObject(body);
  const error = typeof answer?.error === 'string' ? answer.error : undefined;
  if (error && status < 400 && NO_RESULTS.test(error)) return 'no-results';
  if (status >= 400 || error) {
    throw new UpstreamError(
      PROVIDER,
      'http',
      `/search.json answered ${status}: ${(error ?? 'no error message').slice(0, 200)}`,
      status >= 400 ? status : 400,
    );
  }
  if (!answer || !asObject(answer.search_metadata))
    throw new UpstreamError(PROVIDER, 'malformed', '/search.json answered without search_metadata');
  return answer;
}

/** The AI Overview's `references` (its cited pages), in order. */
function referencesOf(answer: JsonObject): { url: string; title: string }[] {
  return (asArray(asObject(answer.ai_overview)?.references) ?? [])
    .map(asObject)
    .filter((reference): reference is JsonObject => reference !== undefined)
    .map((reference) => ({ url: text(reference.link), title: text(reference.title) }))
    .filter((reference) => reference.url !== '');
}

function pageOf(status: number, body: unknown) {
  const answer = answerOf(status, body);
  if (answer === 'no-results') return answer;
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
  // An overview Google sends in a request of its own comes as a token to fetch it with, not its references.
  const token = asObject(answer.ai_overview)?.page_token;
  const overviewToken = typeof token === 'string' && token !== '' ? token : undefined;
  const hasNext = typeof asObject(answer.serpapi_pagination)?.next === 'string' || typeof asObject(answer.pagination)?.next === 'string';
  return { organic, references: referencesOf(answer), overviewToken, hasNext };
}

const text = (value: unknown): string => (typeof value === 'string' ? value : '');
