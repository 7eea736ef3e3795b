import type { SerpFetchOutcome, SerpRequest } from '@rank/serp/fetcher';
import type { SerpSource } from '@rank/serp/sources';
import { countryLocationCode } from '@rank/domain/country-numeric-codes';
import { asArray, asNumber, asObject, type JsonObject } from '../shared/json-shape';
import type { RetryPolicy } from '../shared/retry';
import { UpstreamError } from '../shared/upstream-error';
import { aiOverviewFrom, organicFrom, serpApiFailure } from '../shared/serp-outcome';
import { DATAFORSEO, DataForSeoHttp, NO_SEARCH_RESULTS, type DataForSeoAccess } from './dataforseo-http';

export const DATAFORSEO_SERP_PATH = '/v3/serp/google/organic/live/advanced';

export interface DataForSeoSerpOptions extends DataForSeoAccess {
  /** One call's time limit, body included. */
  timeoutMs: number;
  /** Default: one retry of a passing failure (5xx, DataForSEO's 50301, a reset, a timeout) after about a second. */
  retry?: RetryPolicy;
}

/**
 * The `dataforseo` source: DataForSEO's SERP API, `POST /v3/serp/google/organic/live/advanced`, one
 * live task a call, through the DataForSEO envelope shared with the keyword data client (HTTP Basic,
 * call and task status codes). `depth` asks for the whole top 50 or 100 at once, so a check costs
 * one call however many pages Google would have shown. The results are read as our parser reads a
 * page (see `organicOf`); the AI Overview's references become its sources, the overview loaded even
 * when Google loads it asynchronously (`load_async_ai_overview`).
 */
export class DataForSeoSerpSource implements SerpSource {
  readonly name = 'dataforseo' as const;
  private readonly http: DataForSeoHttp;

  constructor(options: DataForSeoSerpOptions) {
    this.http = new DataForSeoHttp(options, options.retry ?? { attempts: 2, baseDelayMs: 1_000, timeoutMs: options.timeoutMs });
  }

  async fetchSerp(request: SerpRequest): Promise<SerpFetchOutcome> {
    const locationCode = countryLocationCode(request.geoCode);
    if (locationCode === undefined) {
      return {
        kind: 'failed',
        reason: `${DATAFORSEO}: no location code for the country "${request.geoCode}"`,
        pagesRead: 0,
        cause: 'upstream_refused',
        egress: DATAFORSEO,
      };
    }
    const task = {
      keyword: keywordField(request.keyword),
      location_code: locationCode,
      language_code: request.langCode.split(/[-_]/)[0].toLowerCase(),
      depth: request.depth,
      device: 'desktop',
      // An indented second result of a site is its own position (clarifications); by default
      // DataForSEO folds it into its parent as a `related_result`.
      group_organic_results: false,
      // Google loads most AI Overviews asynchronously; without this DataForSEO sends only a cached
      // overview, often an item with no references (costs $0.002 more, refunded when none is loaded).
      load_async_ai_overview: true,
    };
    try {
      const items = resultItems(await this.http.postLiveTask(DATAFORSEO_SERP_PATH, task));
      const organic = organicOf(items);
      const references = items.filter((item) => item.type === 'ai_overview').flatMap(referencesOf);
      return { kind: 'success', organic: organicFrom(organic, request.depth), aiOverview: aiOverviewFrom(references), pagesRead: 1 };
    } catch (error) {
      return serpApiFailure(error, DATAFORSEO);
    }
  }

  async close(): Promise<void> {
    // Nothing is kept open between calls.
  }
}

/**
 * The items of the task's one result; a query Google finds nothing for has `items: null`, or comes
 * as a task with "No Search Results." (40102): a valid "not ranking" either way.
 */
function resultItems(result: unknown[]): JsonObject[] {
  if (result === NO_SEARCH_RESULTS) return [];
  const first = asObject(result[0]);
  if (!first) throw new UpstreamError(DATAFORSEO, 'malformed', `${DATAFORSEO_SERP_PATH} answered a task without a result`);
  if (first.items === null || first.items === undefined) return [];
  const items = asArray(first.items);
  if (!items) throw new UpstreamError(DATAFORSEO, 'malformed', `${DATAFORSEO_SERP_PATH} answered items that are not a list`);
  return items.map(asObject).filter((item): item is JsonObject => item !== undefined);
}
/**
 * DataForSEO decodes `%xx` and reads `+` as a space in `keyword` ("if you need to use the "+"
 * character for your keyword, please specify it as "%2B""): `c++ tutorial` is sent as `c%2B%2B tutorial`.
 */
const keywordField = (keyword: string): string => keyword.replace(/%/g, '%25').replace(/\+/g, '%2B');

/** The item types that are organic results: a featured snippet counts as the organic result it cites (clarifications). */
const ORGANIC_TYPES = new Set(['organic', 'featured_snippet']);

/**
 * The organic results in page order (`rank_absolute`; `rank_group` counts within one item type, so
 * a featured snippet and the first organic item both have 1). An indented result still folded into
 * its parent's `related_result` follows its parent. `organicFrom` drops a URL seen before, as a
 * featured snippet repeated below is.
 */
function organicOf(items: JsonObject[]): { url: string; title: string; snippet: string }[] {
  const unranked = Number.MAX_SAFE_INTEGER;
  return items
    .filter((item) => ORGANIC_TYPES.has(text(item.type)))
    .map((item) => ({ item, rank: asNumber(item.rank_absolute) ?? unranked }))
    .sort((a, b) => a.rank - b.rank)
    .flatMap(({ item }) => [item, ...(asArray(item.related_result) ?? []).map(asObject).filter((r): r is JsonObject => r !== undefined)])
    .map((item) => ({ url: text(item.url), title: text(item.title), snippet: text(item.description) }))
    .filter((item) => item.url !== '');
}

/** References sit on the AI Overview and, in some answers, on its elements; both are read, in order. */
function referencesOf(overview: JsonObject): { url: string; title: string }[] {
  const own = asArray(overview.references) ?? [];
  const nested = (asArray(overview.items) ?? []).flatMap((element) => asArray(asObject(element)?.references) ?? []);
  return [...own, ...nested]
    .map(asObject)
    .filter((reference): reference is JsonObject => reference !== undefined)
    .map((reference) => ({ url: text(reference.url), title: text(reference.title) }))
    .filter((reference) => reference.url !== '');
}

const text = (value: unknown): string => (typeof value === 'string' ? value : '');
