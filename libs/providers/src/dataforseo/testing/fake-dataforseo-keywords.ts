import { FAILURES, FakeJsonApi, type FakeAnswer, type SeenRequest } from '../../testing/fake-json-api';
import { AnswerQueue } from '../../testing/answer-queue';
import type { KeywordFigures } from '../../keyword-data/keyword-data.port';
import {
  DATAFORSEO_KEYWORDS_FOR_KEYWORDS_PATH,
  DATAFORSEO_KEYWORDS_FOR_SITE_PATH,
  DATAFORSEO_SEARCH_VOLUME_PATH,
} from '../keyword-data.client';

export const FAKE_DATAFORSEO_KEYWORDS_LOGIN = 'fake-dataforseo-login';
export const FAKE_DATAFORSEO_KEYWORDS_PASSWORD = 'fake-dataforseo-password';

/** The month the fake's history ends with; 12 months back from it, newest first as DataForSEO lists them. */
export const FAKE_DATAFORSEO_LAST_MONTH = { year: 2025, month: 5 } as const;

type Figures = Omit<KeywordFigures, 'keyword'>;

/**
 * Deterministic figures for a keyword nobody set: the same text always gets the same numbers, so
 * tests of other parts can assert on them (volume 10–9,990, a 12-month history ending in May 2025).
 */
export function fakeFiguresFor(keyword: string): Figures {
  let hash = 0;
  for (const char of keyword) hash = (hash * 31 + char.codePointAt(0)!) >>> 0;
  const volume = 10 * (1 + (hash % 999));
  const history = Array.from({ length: 12 }, (_, i) => {
    const monthsBack = 11 - i;
    const index = FAKE_DATAFORSEO_LAST_MONTH.year * 12 + FAKE_DATAFORSEO_LAST_MONTH.month - 1 - monthsBack;
    return { year: Math.floor(index / 12), month: (index % 12) + 1, value: volume + (i % 3) * 10 - 10 };
  });
  const competitionIndex = hash % 101;
  return {
    avgMonthlySearches: volume,
    competition: competitionIndex < 34 ? 'LOW' : competitionIndex < 67 ? 'MEDIUM' : 'HIGH',
    competitionIndex,
    cpcLow: Math.round((hash % 300) + 10) / 100,
    cpcHigh: Math.round((hash % 300) + 210) / 100,
    history,
  };
}

/** A task-level error inside an HTTP 200, as DataForSEO sends them. */
export function dataForSeoTaskError(statusCode: number, message: string): FakeAnswer {
  return {
    kind: 'json',
    status: 200,
    body: {
      version: '0.1.20250526',
      status_code: 20000,
      status_message: 'Ok.',
      time: '0.1 sec.',
      cost: 0,
      tasks_count: 1,
      tasks_error: 1,
      tasks: [
        {
          id: '05251200-0000-0000-0000-000000000000',
          status_code: statusCode,
          status_message: message,
          time: '0 sec.',
          cost: 0,
          result_count: 0,
          path: [],
          data: {},
          result: null,
        },
      ],
    },
  };
}

export const DATAFORSEO_KEYWORD_FAILURES = {
  ...FAILURES,
  /** 40501 Invalid Field, the answer to a bad location or language. */
  invalidField: (field: string) => dataForSeoTaskError(40501, `Invalid Field: '${field}'.`),
  /** 50301 Too many requests: Google Ads' own limit, passed on by DataForSEO. */
  tooManyRequests: () => dataForSeoTaskError(50301, 'Too many requests.'),
  /** A call-level error (the whole answer's `status_code`). */
  callError: (statusCode = 50000, message = 'Internal Error.'): FakeAnswer => ({
    kind: 'json',
    status: 200,
    body: {
      version: '0.1.20250526',
      status_code: statusCode,
      status_message: message,
      time: '0 sec.',
      cost: 0,
      tasks_count: 0,
      tasks_error: 0,
      tasks: null,
    },
  }),
  malformed: (): FakeAnswer => ({
    kind: 'text',
    status: 200,
    body: '{"status_code": 20000, "tasks": [{"status_code": 20000, "result": [',
    contentType: 'application/json',
  }),
} as const;

/**
 * DataForSEO's Keywords Data API (Google Ads, live) on 127.0.0.1, answering as its docs show:
 * an envelope `{status_code, status_message, tasks: [{status_code, status_message, data, result}]}`,
 * result items `{keyword, location_code, language_code, search_partners, competition,
 * competition_index, search_volume, low_top_of_page_bid, high_top_of_page_bid, cpc,
 * monthly_searches: [{year, month, search_volume}]}` (newest month first). It checks HTTP Basic
 * (401 / 40100 otherwise), one task a call, at most 1,000 keywords a task (40501 otherwise) and
 * 20 seeds for keywords_for_keywords.
 */
export class FakeDataForSeoKeywords {
  /** Figures a test set for a keyword text; others get {@link fakeFiguresFor}. */
  readonly keywords = new Map<string, Figures>();
  /** Keyword texts Google Ads has no data for: returned with null figures. */
  readonly unknown = new Set<string>();
  /** The ideas keywords_for_keywords and keywords_for_site answer (default: three made from the seed or the site). */
  ideas: string[] | undefined;

  private constructor(
    readonly api: FakeJsonApi,
    private readonly queue: AnswerQueue,
  ) {}

  static async start(): Promise<FakeDataForSeoKeywords> {
    let fake: FakeDataForSeoKeywords | undefined;
    const queue = new AnswerQueue();
    const api = await FakeJsonApi.start(queue.route((request) => fake!.answer(request)));
    fake = new FakeDataForSeoKeywords(api, queue);
    return fake;
  }

  /** As DATAFORSEO_BASE_URL takes it. */
  get url(): string {
    return this.api.origin;
  }

  get requests(): SeenRequest[] {
    return this.api.requests;
  }

  /** Every request gets this until `failWith(undefined)`. */
  failWith(answer: FakeAnswer | undefined): void {
    this.api.failWith(answer);
  }

  /** The next `times` requests get `answer`, then the normal answers resume. */
  failNext(answer: FakeAnswer, times = 1): void {
    this.queue.failNext(answer, times);
  }

  reset(): void {
    this.keywords.clear();
    this.unknown.clear();
    this.ideas = undefined;
    this.queue.clear();
    this.api.failWith(undefined);
    this.api.requests.length = 0;
  }

  close(): Promise<void> {
    return this.api.close();
  }

  private answer(request: SeenRequest): FakeAnswer {
    const expected = `Basic ${Buffer.from(`${FAKE_DATAFORSEO_KEYWORDS_LOGIN}:${FAKE_DATAFORSEO_KEYWORDS_PASSWORD}`).toString('base64')}`;
    if (request.headers.authorization !== expected) {
      return {
        kind: 'json',
        status: 401,
        body: {
          version: '0.1.20250526',
          status_code: 40100,
          status_message: 'You are not authorized to access this resource.',
          time: '0 sec.',
          cost: 0,
          tasks_count: 0,
          tasks_error: 0,
          tasks: null,
        },
      };
    }
    const paths = [DATAFORSEO_SEARCH_VOLUME_PATH, DATAFORSEO_KEYWORDS_FOR_KEYWORDS_PATH, DATAFORSEO_KEYWORDS_FOR_SITE_PATH];
    if (request.method !== 'POST' || !paths.includes(request.path))
      return { kind: 'json', status: 404, body: { status_code: 40400, status_message: 'Not Found.' } };
    const tasks = Array.isArray(request.body) ? (request.body as Record<string, unknown>[]) : [];
    if (tasks.length !== 1) return DATAFORSEO_KEYWORD_FAILURES.callError(40000, 'You can set only one task at a time.');
    const task = tasks[0];
    if (typeof task.location_code !== 'number' || task.location_code < 2000)
      return DATAFORSEO_KEYWORD_FAILURES.invalidField('location_code');
    const keywords = Array.isArray(task.keywords) ? (task.keywords as string[]) : [];
    let texts: string[];
    if (request.path === DATAFORSEO_SEARCH_VOLUME_PATH) {
      if (keywords.length === 0 || keywords.length > 1_000) return DATAFORSEO_KEYWORD_FAILURES.invalidField('keywords');
      texts = keywords;
    } else if (request.path === DATAFORSEO_KEYWORDS_FOR_KEYWORDS_PATH) {
      if (keywords.length === 0 || keywords.length > 20) return DATAFORSEO_KEYWORD_FAILURES.invalidField('keywords');
      texts = this.ideas ?? [keywords[0], `${keywords[0]} near me`, `best ${keywords[0]}`];
    } else {
      if (typeof task.target !== 'string' || task.target === '') return DATAFORSEO_KEYWORD_FAILURES.invalidField('target');
      const name = task.target.split('.')[0];
      texts = this.ideas ?? [name, `${name} login`, `${name} reviews`];
    }
    const result = texts.map((keyword) => this.item(keyword, task));
    return {
      kind: 'json',
      body: {
        version: '0.1.20250526',
        status_code: 20000,
        status_message: 'Ok.',
        time: '0.4 sec.',
        cost: 0.075,
        tasks_count: 1,
        tasks_error: 0,
        tasks: [
          {
            id: '05251200-1535-0369-0000-7d4e5a3c2b1a',
            status_code: 20000,
            status_message: 'Ok.',
            time: '0.3 sec.',
            cost: 0.075,
            result_count: result.length,
            path: request.path.split('/').filter(Boolean),
            data: { api: 'keywords_data', function: request.path.split('/')[4], se: 'google_ads', ...task },
            result,
          },
        ],
      },
    };
  }

  private item(keyword: string, task: Record<string, unknown>): Record<string, unknown> {
    const base = {
      keyword,
      spell: null,
      location_code: task.location_code,
      language_code: task.language_code ?? null,
      search_partners: task.search_partners ?? false,
    };
    if (this.unknown.has(keyword)) {
      return {
        ...base,
        competition: null,
        competition_index: null,
        search_volume: null,
        low_top_of_page_bid: null,
        high_top_of_page_bid: null,
        cpc: null,
        monthly_searches: null,
      };
    }
    const figures = this.keywords.get(keyword) ?? fakeFiguresFor(keyword);
    return {
      ...base,
      competition: figures.competition,
      competition_index: figures.competitionIndex,
      search_volume: figures.avgMonthlySearches,
      low_top_of_page_bid: figures.cpcLow,
      high_top_of_page_bid: figures.cpcHigh,
      cpc: figures.cpcHigh === null ? null : Math.round(((figures.cpcLow ?? 0) + figures.cpcHigh) * 50) / 100,
      monthly_searches: [...figures.history].reverse().map((m) => ({ year: m.year, month: m.month, search_volume: m.value })),
    };
  }
}

/** Starts the fake; point DATAFORSEO_BASE_URL at `url` and use the FAKE_DATAFORSEO_KEYWORDS_* credentials. */
export function startDataForSeoKeywordsFake(): Promise<FakeDataForSeoKeywords> {
  return FakeDataForSeoKeywords.start();
}
