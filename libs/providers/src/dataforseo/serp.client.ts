import type { SerpFetchOutcome, SerpRequest } from '@rank/serp/fetcher';
import type { SerpSource } from '@rank/serp/sources';
import { countryLocationCode } from '@rank/domain/country-numeric-codes';
import { fetchJson } from '../shared/fetch-json';
import { asArray, asNumber, asObject, type JsonObject } from '../shared/json-shape';
import { UpstreamError } from '../shared/upstream-error';
import { aiOverviewFrom, organicFrom, serpApiFailure } from '../shared/serp-outcome';

const PROVIDER = 'dataforseo';
export const DATAFORSEO_SERP_PATH = '/v3/serp/google/organic/live/advanced';
/** DataForSEO's "Ok." status code, for the whole answer and for each task. */
const OK = 20000;

export interface DataForSeoSerpOptions {
  login: string;
  password: string;
  /** `DATAFORSEO_BASE_URL`, default https://api.dataforseo.com. */
  baseUrl: string;
  timeoutMs: number;
}

/**
 * The `dataforseo` source: DataForSEO's SERP API, `POST /v3/serp/google/organic/live/advanced`, one
 * live task a call. `depth` asks for the whole top 50 or 100 at once, so a check costs one call
 * however many pages Google would have shown. Organic items are ordered by `rank_group` (their
 * rank among organic results); the AI Overview's references become its sources.
 */
export class DataForSeoSerpSource implements SerpSource {
  readonly name = 'dataforseo' as const;
  private readonly authorization: string;

  constructor(private readonly options: DataForSeoSerpOptions) {
    this.authorization = `Basic ${Buffer.from(`${options.login}:${options.password}`).toString('base64')}`;
  }

  async fetchSerp(request: SerpRequest): Promise<SerpFetchOutcome> {
    const locationCode = countryLocationCode(request.geoCode);
    if (locationCode === undefined) return { kind: 'failed', reason: `${PROVIDER}: no location code for the country "${request.geoCode}"`, pagesRead: 0, cause: 'upstream_refused', egress: PROVIDER };
    const task = {
      keyword: request.keyword,
      location_code: locationCode,
      language_code: request.langCode.split(/[-_]/)[0].toLowerCase(),
      depth: request.depth,
      device: 'desktop',
    };
    try {
      const response = await fetchJson({
        provider: PROVIDER,
        method: 'POST',
        url: new URL(`${this.options.baseUrl}${DATAFORSEO_SERP_PATH}`),
        body: [task],
        headers: { authorization: this.authorization },
        timeoutMs: this.options.timeoutMs,
      });
      const items = resultItems(response.status, response.body);
      const organic = items
        .filter((item) => item.type === 'organic')
        .map((item) => ({ rank: asNumber(item.rank_group), url: text(item.url), title: text(item.title), snippet: text(item.description) }))
        .filter((item): item is { rank: number; url: string; title: string; snippet: string } => item.rank !== undefined && item.url !== '')
        .sort((a, b) => a.rank - b.rank);
      const references = items.filter((item) => item.type === 'ai_overview').flatMap(referencesOf);
      return { kind: 'success', organic: organicFrom(organic, request.depth), aiOverview: aiOverviewFrom(references), pagesRead: 1 };
    } catch (error) {
      return serpApiFailure(error, PROVIDER);
    }
  }

  async close(): Promise<void> {
    // Nothing is kept open between calls.
  }
}

/**
 * The items of the one task's one result. A failed call (HTTP status, or DataForSEO's own status
 * code in the body: 40100 a bad login, 40200 no money left, 40501 a bad field) is an error naming the
 * code and message DataForSEO gave.
 */
function resultItems(status: number, body: unknown): JsonObject[] {
  const answer = asObject(body);
  const statusCode = asNumber(answer?.status_code);
  if (status >= 400 || (statusCode !== undefined && statusCode !== OK)) {
    const message = typeof answer?.status_message === 'string' ? answer.status_message : 'no message';
    throw new UpstreamError(PROVIDER, 'http', `${DATAFORSEO_SERP_PATH} answered ${status} (${statusCode ?? 'no status code'}: ${message.slice(0, 200)})`, status >= 400 ? status : 400);
  }
  const task = asObject(asArray(answer?.tasks)?.[0]);
  if (!task) throw new UpstreamError(PROVIDER, 'malformed', `${DATAFORSEO_SERP_PATH} answered without a task`);
  const taskCode = asNumber(task.status_code);
  if (taskCode !== OK) {
    const message = typeof task.status_message === 'string' ? task.status_message : 'no message';
    // 5xxxx are DataForSEO's own failures (worth another source or a retry); 4xxxx are the request's.
    const httpLike = taskCode !== undefined && taskCode >= 50000 ? 503 : 400;
    throw new UpstreamError(PROVIDER, 'http', `the task failed (${taskCode ?? 'no status code'}: ${message.slice(0, 200)})`, httpLike);
  }
  const result = asObject(asArray(task.result)?.[0]);
  if (!result) throw new UpstreamError(PROVIDER, 'malformed', `${DATAFORSEO_SERP_PATH} answered a task without a result`);
  // A query Google finds nothing for has `items: null`: a valid "not ranking".
  if (result.items === null || result.items === undefined) return [];
  const items = asArray(result.items);
  if (!items) throw new UpstreamError(PROVIDER, 'malformed', `${DATAFORSEO_SERP_PATH} answered items that are not a list`);
  return items.map(asObject).filter((item): item is JsonObject => item !== undefined);
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
