import type { TrackedKeyword } from '@rank/projects/domain/project-content.events';
import { resolveDayWindow } from '@rank/tracking/reads/shared/day-window';
import { orderKeywords, SortField, SortOrder } from '@rank/tracking/reads/keyword-updates/keyword-order';
import type { SeededCheck } from '../../support/seed-checks';
import type { TestApp } from '../../support/test-app';
import { createProject, NOW, seed, startReadsApp } from './reads-fixture';

/**
 * keyword-updates was rewritten for speed (ids first and pages after, one row per keyword, the answer
 * written as a stream). This proves the answer did not change: the reference below is the reader's
 * query and the controller's shaping as they were before, kept verbatim, run on the same seeded
 * checks; the endpoint's text must equal JSON.stringify of the reference, byte for byte.
 */
const OLD_QUERY = (aggregation: 'daily' | 'weekly' | 'monthly', filtered: boolean) => `
      SELECT keyword_id AS keywordId,
             pick.1 AS checkId,
             toString(toUnixTimestamp64Milli(pick.2)) AS checkedAtMs,
             pick.3 AS status, pick.4 AS position, pick.5 AS url, pick.6 AS title, pick.7 AS domain, pick.8 AS hasAiOverview
      FROM (
        SELECT keyword_id,
               argMax(tuple(check_id, checked_at, status, position, url, title, domain, has_ai_overview),
                      tuple(status = 'success', checked_at, check_id)) AS pick
        FROM keyword_updates
        WHERE project_id = {projectId:String}
          AND checked_at >= {from:DateTime64(3, 'UTC')} AND checked_at < {to:DateTime64(3, 'UTC')}
          ${aggregation === 'daily' ? '' : "AND status = 'success'"}
          ${filtered ? 'AND keyword_id IN {keywordIds:Array(String)}' : ''}
        GROUP BY keyword_id, ${{ daily: 'toDate(checked_at)', weekly: 'toMonday(checked_at)', monthly: 'toStartOfMonth(checked_at)' }[aggregation]}
      )
      ORDER BY keywordId, pick.2, checkId`;

interface OldRow {
  keywordId: string;
  checkId: string;
  checkedAtMs: string;
  status: string;
  position: number;
  url: string;
  title: string;
  domain: string;
  hasAiOverview: number;
}

const oldView = (row: OldRow) => {
  const succeeded = row.status === 'success';
  return {
    _id: row.checkId,
    date: new Date(Number(row.checkedAtMs)).toISOString(),
    status: succeeded ? 'success' : 'failed',
    position: succeeded ? { position: row.position, url: row.url, title: row.title, domain: row.domain } : null,
    aiSerpId: succeeded && row.hasAiOverview ? row.checkId : null,
  };
};

const KEYWORDS = ['red shoes', 'blue shoes', 'green boots', 'trail sandals', 'winter boots', 'kids sneakers', 'dance shoes', 'golf shoes'];
const PAGES = ['https://ours.com/shoes', 'https://ours.com/boots', 'https://shop.ours.com/sale?x="quoted"&y=1', 'https://ours.com/ünïcode'];
const DAY_MS = 86_400_000;

describe('GET /api/projects/keyword-updates gives the same answer as the previous reader', () => {
  let app: TestApp;
  let key: string;
  let projectId: string;
  let keywords: TrackedKeyword[];

  beforeAll(async () => {
    app = await startReadsApp();
    key = (await app.createAccount()).apiKey;
    const created = await createProject(app, key, { domain: 'ours.com' }, [
      { keywords: KEYWORDS.slice(0, 6), geoCode: 'US', langCode: 'en' },
      { keywords: KEYWORDS.slice(6), geoCode: 'DE', langCode: 'de' },
    ]);
    projectId = created.projectId;
    keywords = KEYWORDS.map(
      (value, i) =>
        ({ keywordId: created.ids[value]!, value, geoCode: i < 6 ? 'US' : 'DE', langCode: i < 6 ? 'en' : 'de' }) as TrackedKeyword,
    );

    // 100 days of checks with a deterministic mix: pages that change, not ranking, failures, second
    // checks on a day (before and after a failure), AI Overviews, and a keyword never checked.
    let state = 7;
    const next = (n: number) => ((state = (state * 1_103_515_245 + 12_345) % 2_147_483_648), state % n);
    const checks: SeededCheck[] = [];
    for (const [k, keyword] of keywords.entries()) {
      if (k === KEYWORDS.length - 1) continue;
      for (let day = 100; day >= 0; day--) {
        const base = NOW.getTime() - day * DAY_MS - 10 * 3_600_000 + k * 60_000;
        const times = next(10) < 2 ? [base, base + 3_600_000 + next(1000)] : [base];
        for (const at of times) {
          if (at > NOW.getTime()) continue;
          const position = next(6);
          const check: SeededCheck =
            next(10) === 0
              ? { projectId, keywordId: keyword.keywordId, at: new Date(at).toISOString(), failedReason: 'Blocked by Google (captcha)' }
              : {
                  projectId,
                  keywordId: keyword.keywordId,
                  at: new Date(at).toISOString(),
                  projectDomains: ['ours.com'],
                  urls: Array.from({ length: 6 }, (_, i) =>
                    i + 1 === position ? PAGES[(k + Math.floor(day / 30) + next(2)) % PAGES.length]! : `https://rival${i}.example/x`,
                  ),
                  ...(next(3) === 0 ? { aiOverviewUrls: ['https://cited.example/a'] } : {}),
                };
          checks.push(check);
        }
      }
    }
    const ids = await seed(app, checks);
    // A delivered-twice check (a replay) must not count twice, in either reader.
    await seed(app, [
      { ...checks[5]!, checkId: ids[5]! },
      { ...checks[40]!, checkId: ids[40]! },
    ]);
  }, 120_000);
  afterAll(() => app.close());

  async function reference(query: {
    startDate?: string;
    endDate?: string;
    aggregation?: 'daily' | 'weekly' | 'monthly';
    search?: string;
    sortBy?: SortField;
    sortOrder?: SortOrder;
  }) {
    const window = resolveDayWindow(query, NOW);
    const chosen = query.search ? keywords.filter((k) => k.value.includes(query.search!)) : keywords;
    const rows = await app.running.stores.readStore.query<OldRow>(OLD_QUERY(query.aggregation ?? 'daily', query.search !== undefined), {
      projectId,
      from: window.from,
      to: window.to,
      ...(query.search ? { keywordIds: chosen.map((k) => k.keywordId) } : {}),
    });
    const updates = new Map<string, ReturnType<typeof oldView>[]>();
    for (const row of rows) updates.set(row.keywordId, [...(updates.get(row.keywordId) ?? []), oldView(row)]);
    const sortable = chosen.map((keyword) => {
      const own = updates.get(keyword.keywordId) ?? [];
      const latestSuccess = [...own].reverse().find((u) => u.status === 'success');
      return { keyword, latestPosition: latestSuccess?.position?.position ?? null, volume: null, updates: own };
    });
    const data: Record<string, unknown> = {};
    for (const entry of orderKeywords(sortable, query.sortBy, query.sortOrder ?? 'desc')) {
      const { keywordId, value, geoCode, langCode } = entry.keyword;
      data[keywordId] = { keyword: { _id: keywordId, value, geoCode, langCode, avgMonthlySearches: entry.volume }, updates: entry.updates };
    }
    return { body: { success: true, data }, updates: rows.length };
  }

  it.each([
    ['the default 30 days, daily', {}],
    ['100 days, daily', { startDate: '2025-12-10' }],
    ['100 days, weekly', { startDate: '2025-12-10', aggregation: 'weekly' as const }],
    // Weekly reads whole weeks from keyword_week_picks and the partial ones at the ends from the day checks.
    ['whole weeks only, Monday to Sunday', { startDate: '2025-12-15', endDate: '2026-03-15', aggregation: 'weekly' as const }],
    ['inside one week', { startDate: '2026-03-17', endDate: '2026-03-19', aggregation: 'weekly' as const }],
    ['a week and a day', { startDate: '2026-03-09', endDate: '2026-03-16', aggregation: 'weekly' as const }],
    ['100 days, monthly', { startDate: '2025-12-10', aggregation: 'monthly' as const }],
    ['a text filter', { startDate: '2025-12-10', search: 'boots' }],
    ['by position, best first', { sortBy: 'position' as const, sortOrder: 'asc' as const }],
    ['by position, desc', { startDate: '2026-01-01', sortBy: 'position' as const }],
    ['by keyword', { sortBy: 'keyword' as const, sortOrder: 'asc' as const }],
  ])('%s', async (_label, query) => {
    const expected = await reference(query);
    expect(expected.updates).toBeGreaterThan('endDate' in query ? 5 : 20);
    const answer = await app.request('GET', '/api/projects/keyword-updates', { key, query: { projectId, ...query } });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
    expect(answer.body).toEqual(expected.body);
    expect(answer.text).toBe(JSON.stringify(expected.body));
  });
});
