import type { AiOverviewSource, OrganicResult } from '@rank/serp/parser';
import { FakeJsonApi, type FakeAnswer, type SeenRequest } from '../../testing/fake-json-api';
import { DATAFORSEO_SERP_PATH } from '../serp.client';

export const FAKE_DATAFORSEO_LOGIN = 'test-login';
export const FAKE_DATAFORSEO_PASSWORD = 'test-password';

/** What Google "shows" for a keyword: results as our parser reads them, turned into DataForSEO items. */
export interface FakeSerp {
  organic: OrganicResult[];
  aiOverview: AiOverviewSource[];
  /** The first result is shown as a featured snippet: a `featured_snippet` item, not an `organic` one. */
  featuredSnippet?: boolean;
  /** Positions that are an indented second result of the site above: a `related_result` of the result before them, unless the task sets `group_organic_results: false`. */
  indented?: number[];
}

/**
 * DataForSEO's answer to one live SERP task, in the envelope its docs describe (`version`,
 * `status_code` 20000, `tasks[0].result[0].items`): `organic` and `featured_snippet` items with
 * `rank_group` (the rank among items of their type) and `rank_absolute` (the rank on the page; the
 * AI Overview takes one of its own), and an `ai_overview` item whose `references` carry `source`,
 * `domain`, `url`, `title` and `text`. An indented result is folded into its parent's
 * `related_result` by default ("if set to false, the related_result element will be provided as a
 * separate organic result; default value: true").
 * Google loads the overview asynchronously (`asynchronous_ai_overview: true`), and, as the docs
 * say, its content comes only when the task sets `load_async_ai_overview`; otherwise the item is
 * there without elements or references.
 */
export function dataForSeoSerpAnswer(task: Record<string, unknown>, serp: FakeSerp | null): unknown {
  const loaded = task.load_async_ai_overview === true;
  const grouped = task.group_organic_results !== false;
  const aiItems: Record<string, unknown>[] =
    serp && serp.aiOverview.length > 0
      ? [
          {
            type: 'ai_overview',
            rank_group: 1,
            rank_absolute: 1,
            position: 'left',
            asynchronous_ai_overview: true,
            items: loaded ? [{ type: 'ai_overview_element', title: null, text: 'An overview.', references: null }] : null,
            references: loaded
              ? serp.aiOverview.map((source) => ({
                  type: 'ai_overview_reference',
                  source: source.domain,
                  domain: source.domain,
                  url: source.url,
                  title: source.title,
                  text: '',
                }))
              : null,
          },
        ]
      : [];
  const organicItems: Record<string, unknown>[] = [];
  const ranks = new Map<string, number>();
  for (const [index, result] of (serp?.organic ?? []).entries()) {
    const shown = { domain: result.domain, title: result.title, url: result.url, description: result.snippet, breadcrumb: result.url };
    const parent = organicItems.at(-1);
    if (grouped && parent && serp?.indented?.includes(result.position)) {
      parent.related_result = [...((parent.related_result as unknown[] | null) ?? []), { type: 'related_result', ...shown }];
      continue;
    }
    const type = index === 0 && serp?.featuredSnippet ? 'featured_snippet' : 'organic';
    ranks.set(type, (ranks.get(type) ?? 0) + 1);
    const rankAbsolute = aiItems.length + organicItems.length + 1;
    organicItems.push({ type, rank_group: ranks.get(type), rank_absolute: rankAbsolute, position: 'left', ...shown, related_result: null });
  }
  const items = serp === null ? null : [...aiItems, ...organicItems];
  return {
    version: '0.1.20250101',
    status_code: 20000,
    status_message: 'Ok.',
    time: '5.2 sec.',
    cost: 0.002,
    tasks_count: 1,
    tasks_error: 0,
    tasks: [
      {
        id: '11251234-1234-0066-0000-c2b3e5ec6a8f',
        status_code: 20000,
        status_message: 'Ok.',
        time: '5.1 sec.',
        cost: 0.002,
        result_count: 1,
        path: ['v3', 'serp', 'google', 'organic', 'live', 'advanced'],
        data: { api: 'serp', function: 'live', se: 'google', se_type: 'organic', ...task },
        result: [
          {
            keyword: task.keyword,
            type: 'organic',
            se_domain: 'google.com',
            location_code: task.location_code,
            language_code: task.language_code,
            check_url: 'https://www.google.com/search?q=fake',
            datetime: '2026-01-01 09:00:00 +00:00',
            item_types: items ? [...new Set(items.map((i) => i.type))] : [],
            se_results_count: 1000,
            items_count: items?.length ?? 0,
            items,
          },
        ],
      },
    ],
  };
}

/** DataForSEO's refusal of a bad login: HTTP 401 with its own status code 40100. */
export const DATAFORSEO_UNAUTHORISED: FakeAnswer = {
  kind: 'json',
  status: 401,
  body: {
    version: '0.1.20250101',
    status_code: 40100,
    status_message: 'You are not authorized to access this resource.',
    time: '0 sec.',
    cost: 0,
    tasks_count: 0,
    tasks_error: 0,
    tasks: null,
  },
};

/** A task DataForSEO could not run (here: its internal error), inside an HTTP 200. */
export const dataForSeoTaskError = (statusCode: number, message: string): FakeAnswer => ({
  kind: 'json',
  status: 200,
  body: {
    version: '0.1.20250101',
    status_code: 20000,
    status_message: 'Ok.',
    time: '0.1 sec.',
    cost: 0,
    tasks_count: 1,
    tasks_error: 1,
    tasks: [
      {
        id: '11251234-1234-0066-0000-000000000000',
        status_code: statusCode,
        status_message: message,
        time: '0 sec.',
        cost: 0,
        result_count: 0,
        result: null,
      },
    ],
  },
});

/**
 * A local DataForSEO SERP API: checks HTTP Basic credentials and the task's documented fields, and
 * answers each keyword from `serps` (an unknown keyword gets `items: null`, Google finding nothing).
 */
export async function startFakeDataForSeoSerp(serps: Map<string, FakeSerp>): Promise<FakeJsonApi> {
  return FakeJsonApi.start((request: SeenRequest): FakeAnswer => {
    const expected = `Basic ${Buffer.from(`${FAKE_DATAFORSEO_LOGIN}:${FAKE_DATAFORSEO_PASSWORD}`).toString('base64')}`;
    if (request.headers.authorization !== expected) return DATAFORSEO_UNAUTHORISED;
    if (request.method !== 'POST' || request.path !== DATAFORSEO_SERP_PATH)
      return { kind: 'json', status: 404, body: { status_code: 40400, status_message: 'Not Found.' } };
    const tasks = Array.isArray(request.body) ? (request.body as Record<string, unknown>[]) : [];
    // Live SERP calls take exactly one task.
    if (tasks.length !== 1) return dataForSeoTaskError(40000, 'You can set only one task at a time.');
    const task = tasks[0];
    if (typeof task.keyword !== 'string' || typeof task.location_code !== 'number' || typeof task.language_code !== 'string') {
      return dataForSeoTaskError(40501, 'Invalid Field: keyword, location_code or language_code.');
    }
    const depth = typeof task.depth === 'number' ? task.depth : 100;
    const serp = serps.get(task.keyword);
    return { kind: 'json', body: dataForSeoSerpAnswer(task, serp ? { ...serp, organic: serp.organic.slice(0, depth) } : null) };
  });
}
