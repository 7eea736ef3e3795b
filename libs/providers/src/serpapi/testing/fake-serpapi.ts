import type { AiOverviewSource, OrganicResult } from '@rank/serp/parser';
import { FakeJsonApi, type FakeAnswer, type SeenRequest } from '../../testing/fake-json-api';

export const FAKE_SERPAPI_KEY = 'test-serpapi-key';

export interface FakeSerp {
  organic: OrganicResult[];
  aiOverview: AiOverviewSource[];
  /**
   * Google sent the overview in a request of its own: the search answers `ai_overview.page_token`
   * (and `serpapi_link`), and the Google AI Overview API (`engine=google_ai_overview`) its content;
   * `expired`: that API refuses the token.
   */
  overviewByToken?: boolean | 'expired';
}

/** The token the fake hands out for a query's overview. */
const overviewToken = (query: string) => `fake-token-${Buffer.from(query).toString('base64url')}`;

/** The overview as SerpApi reports it: `text_blocks`, and `references` with `title`, `link`, `snippet`, `source`, `index`. */
const overviewOf = (serp: FakeSerp) => ({
  text_blocks: [{ type: 'paragraph', snippet: 'An overview.' }],
  references: serp.aiOverview.map((s, index) => ({ title: s.title, link: s.url, snippet: '', source: s.domain, index })),
});

/**
 * SerpApi's Google Search answer for one page, as its docs describe it: `search_metadata.status`
 * "Success", `organic_results` with `position`, `title`, `link`, `snippet`, `ai_overview.references`
 * with `title`, `link`, `source`, `index`, and `serpapi_pagination.next` while there are more pages.
 */
export function serpApiPage(query: URLSearchParams, serp: FakeSerp): unknown {
  const start = Number(query.get('start') ?? '0');
  const page = serp.organic.slice(start, start + 10);
  const hasNext = start + 10 < serp.organic.length;
  return {
    search_metadata: {
      id: '6700000000000000000000aa',
      status: 'Success',
      json_endpoint: 'https://serpapi.com/searches/fake.json',
      total_time_taken: 1.2,
    },
    search_parameters: { engine: 'google', q: query.get('q'), gl: query.get('gl'), hl: query.get('hl'), start, num: query.get('num') },
    search_information: { organic_results_state: 'Results for exact spelling', total_results: 1000 },
    ...(start === 0 && serp.aiOverview.length > 0
      ? {
          ai_overview: serp.overviewByToken
            ? {
                page_token: overviewToken(query.get('q') ?? ''),
                serpapi_link: `https://serpapi.com/search.json?engine=google_ai_overview&page_token=${overviewToken(query.get('q') ?? '')}`,
              }
            : overviewOf(serp),
        }
      : {}),
    organic_results: page.map((result, index) => ({
      position: start + index + 1,
      title: result.title,
      link: result.url,
      displayed_link: result.domain,
      snippet: result.snippet,
    })),
    ...(hasNext ? { serpapi_pagination: { current: start / 10 + 1, next: `https://serpapi.com/search.json?start=${start + 10}` } } : {}),
  };
}

/** SerpApi's refusal of a bad key: HTTP 401 with an `error` message. */
export const SERPAPI_INVALID_KEY: FakeAnswer = {
  kind: 'json',
  status: 401,
  body: { error: 'Invalid API key. Your API key should be here: https://serpapi.com/manage-api-key' },
};

/**
 * A local SerpApi: checks the key and the engine, and answers each query from `serps` (an unknown
 * one: Google found nothing), and a deferred overview by its token (`engine=google_ai_overview`).
 */
export async function startFakeSerpApi(serps: Map<string, FakeSerp>): Promise<FakeJsonApi> {
  return FakeJsonApi.start((request: SeenRequest): FakeAnswer => {
    if (request.query.get('api_key') !== FAKE_SERPAPI_KEY) return SERPAPI_INVALID_KEY;
    if (request.path === '/search.json' && request.query.get('engine') === 'google_ai_overview') {
      const token = request.query.get('page_token');
      const serp = [...serps].find(([query, candidate]) => candidate.overviewByToken === true && overviewToken(query) === token)?.[1];
      if (!serp) return { kind: 'json', status: 400, body: { error: 'Invalid page_token.' } };
      return {
        kind: 'json',
        body: {
          search_metadata: { id: '6700000000000000000000ab', status: 'Success', total_time_taken: 0.9 },
          search_parameters: { engine: 'google_ai_overview', page_token: token },
          ai_overview: overviewOf(serp),
        },
      };
    }
    if (request.path !== '/search.json' || request.query.get('engine') !== 'google')
      return { kind: 'json', status: 400, body: { error: 'Unsupported engine.' } };
    const serp = serps.get(request.query.get('q') ?? '');
    if (!serp) {
      return {
        kind: 'json',
        body: {
          search_metadata: { status: 'Success' },
          search_information: { organic_results_state: 'Fully empty' },
          error: "Google hasn't returned any results for this query.",
        },
      };
    }
    return { kind: 'json', body: serpApiPage(request.query, serp) };
  });
}
