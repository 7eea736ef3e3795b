/**
 * The baselines of the ranking reads: plain ClickHouse SQL over the same tables that computes the
 * same answer as each endpoint, run through the same read store (chDB in this process), rows
 * parsed into JavaScript objects. The endpoint's time divided by this one is our overhead: HTTP,
 * auth, the event-sourced keyword list, shaping and serialising JSON or CSV, and any extra queries.
 *
 * Written from the spec and clarifications, not copied from the endpoints, so a slow query in an
 * endpoint shows up as overhead instead of being reproduced in the baseline. "Latest" is argMax by
 * checked_at alone: a keyword's checks never share a millisecond in the seeded data, so a tie-break
 * on check_id (which an endpoint may want for determinism) changes no answer here, and it is not
 * free: on a year of checks it doubles the time of the per-day argMax (measured 320 vs 770 ms).
 */
import type { QueryParams, ReadStore } from '@rank/read-store/read-store.port';

/**
 * How a baseline runs its SQL. `intoRows` is the baseline proper: the answer's rows parsed into
 * JavaScript, as an endpoint must have them. `inEngine` makes ClickHouse compute the same answer but
 * ship one row: the difference between the two is the cost of carrying rows out of chDB as JSON,
 * which tells a slow endpoint's query from its data transfer.
 *
 * Not `SELECT count() FROM (...)`: ClickHouse prunes the columns count() does not read, so an
 * argMax(...) in the subquery is never computed (measured: 30 ms instead of 300). Hashing every
 * column (`cityHash64(*)`) forces each value to be computed, like FORMAT Null would.
 */
export type SqlRunner = (sql: string, params: QueryParams) => Promise<number>;

export const intoRows =
  (store: ReadStore): SqlRunner =>
  async (sql, params) =>
    (await store.query(sql, params)).length;

export const inEngine =
  (store: ReadStore): SqlRunner =>
  async (sql, params) => {
    const [row] = await store.query<{ n: string }>(`SELECT count() AS n, sum(cityHash64(*)) AS h FROM (${sql})`, params);
    return Number(row?.n ?? 0);
  };

export interface Window {
  from: Date;
  to: Date;
}

/**
 * Each keyword's pick per period from keyword_day_checks (migration 011: every check, narrow, sorted
 * by project, keyword, day, succeeded, checked_at, check_id): the rows in that order backwards, the
 * first of each period kept. What the keyword-updates, pages and summary baselines start from.
 */
const PICKS = (period: string, where: string) => `
  SELECT keyword_id, ${period} AS period, checked_at, check_id, succeeded, position, page_key, has_ai_overview
  FROM keyword_day_checks
  WHERE project_id = {projectId:String} ${where}
  ORDER BY keyword_id DESC, day DESC, succeeded DESC, checked_at DESC, check_id DESC
  LIMIT 1 BY keyword_id, period`;

const PAGE_STRINGS = `
  SELECT page_key, any(url) AS page_url, any(title) AS page_title, any(domain) AS page_domain
  FROM ranking_pages WHERE project_id = {projectId:String} GROUP BY page_key`;

const dayRange = (window: Window) => ({
  firstDay: window.from.toISOString().slice(0, 10),
  lastDay: new Date(window.to.getTime() - 86_400_000).toISOString().slice(0, 10),
});

/**
 * keyword-updates: one check per keyword and period, the latest successful (daily: else the latest
 * failed), with its page's URL, title and domain. Weekly reduces the successful day picks by week.
 */
export async function rawKeywordUpdates(run: SqlRunner, projectId: string, window: Window, period: 'daily' | 'weekly'): Promise<number> {
  const days = 'AND day BETWEEN {firstDay:Date} AND {lastDay:Date}';
  const range = dayRange(window);
  // Weekly: whole weeks from keyword_week_picks (folded to one row per keyword and week by merges),
  // the partial weeks at the window's ends from the day checks.
  const dayMs = 86_400_000;
  const mondayOf = (day: string) => {
    const at = Date.parse(`${day}T00:00:00.000Z`);
    return new Date(at - ((new Date(at).getUTCDay() + 6) % 7) * dayMs).toISOString().slice(0, 10);
  };
  const plusDays = (day: string, n: number) => new Date(Date.parse(`${day}T00:00:00.000Z`) + n * dayMs).toISOString().slice(0, 10);
  const firstWeek = mondayOf(range.firstDay) === range.firstDay ? range.firstDay : plusDays(mondayOf(range.firstDay), 7);
  const afterLastWeek = mondayOf(plusDays(range.lastDay, 1));
  const picks =
    period === 'daily'
      ? PICKS('day', days)
      : `SELECT keyword_id, week AS period, pick.1 AS checked_at, pick.2 AS check_id, toUInt8(1) AS succeeded, pick.3 AS position,
                pick.4 AS page_key, pick.5 AS has_ai_overview
         FROM keyword_week_picks
         WHERE project_id = {projectId:String} AND week >= {firstWeek:Date} AND week < {afterLastWeek:Date}
         ORDER BY keyword_id, week, pick DESC
         LIMIT 1 BY keyword_id, week
         UNION ALL
         ${PICKS('toMonday(day)', `${days} AND succeeded = 1 AND (day < {firstWeek:Date} OR day >= {afterLastWeek:Date})`)}`;
  return run(
    `SELECT keyword_id, period, checked_at, check_id, succeeded, position, has_ai_overview, page_url, page_title, page_domain
     FROM (${picks}) AS picks
     LEFT JOIN (${PAGE_STRINGS}) AS pages ON pages.page_key = picks.page_key
     ORDER BY keyword_id, period`,
    { projectId, ...range, firstWeek, afterLastWeek },
  );
}

/**
 * position-history: where the check lives, then its result page and the keyword's latest successful
 * check before it, two whole check_snapshots rows (outcome, organic results, AI Overview sources).
 * Two statements, as the lookup by check id must come first (the snapshots are keyed by project and
 * keyword). The rows are the two pages; comparing them is the API's work.
 */
export async function rawPositionHistory(store: ReadStore, run: SqlRunner, checkId: string): Promise<number> {
  const [check] = await store.query<{ project_id: string; keyword_id: string; checked_at: string }>(
    `SELECT project_id, keyword_id, toString(checked_at) AS checked_at FROM checks_by_id WHERE check_id = {checkId:String} LIMIT 1`,
    { checkId },
  );
  if (!check) throw new Error(`check ${checkId} not found`);
  return run(
    `SELECT check_id, status, position, positions, urls, titles, domains, ai_positions, ai_urls, ai_titles, ai_domains
     FROM check_snapshots
     WHERE project_id = {projectId:String} AND keyword_id = {keywordId:String} AND checked_at <= toDateTime64({at:String}, 3, 'UTC')
       AND (check_id = {checkId:String} OR (status = 'success' AND checked_at < toDateTime64({at:String}, 3, 'UTC')))
     ORDER BY checked_at DESC, check_id DESC
     LIMIT 2`,
    { projectId: check.project_id, keywordId: check.keyword_id, checkId, at: check.checked_at },
  );
}

/**
 * pages: each keyword's latest successful check that ranks, grouped by its URL (count, average and
 * best position, the keywords), and the weekly average position of each page over the last 90 days.
 */
export async function rawPages(run: SqlRunner, projectId: string, now: Date): Promise<number> {
  const pages = await run(
    `SELECT page_url AS url, count() AS keyword_count, avg(position) AS avg_position, min(position) AS best_position,
            groupArray((keyword_id, position)) AS keywords
     FROM (${PICKS('0', 'AND succeeded = 1')}) AS picks
     JOIN (${PAGE_STRINGS}) AS pages ON pages.page_key = picks.page_key
     WHERE position > 0
     GROUP BY url
     ORDER BY avg_position DESC`,
    { projectId },
  );
  // Whole weeks from keyword_week_picks, the current one (not over yet) from the day checks.
  const trend = await run(
    `SELECT page_url, period AS week, avg(position) AS avg_position, uniqExact(keyword_id) AS keyword_count
     FROM (
       SELECT keyword_id, week AS period, pick.3 AS position, pick.4 AS page_key
       FROM keyword_week_picks
       WHERE project_id = {projectId:String} AND week >= toMonday({firstDay:Date}) AND week < toMonday(today())
       ORDER BY keyword_id, week, pick DESC
       LIMIT 1 BY keyword_id, week
       UNION ALL
       SELECT keyword_id, period, position, page_key FROM (${PICKS('toMonday(day)', 'AND succeeded = 1 AND day >= toMonday(today())')})
     ) AS picks
     JOIN (${PAGE_STRINGS}) AS pages ON pages.page_key = picks.page_key
     WHERE position > 0
     GROUP BY page_url, week
     ORDER BY page_url, week`,
    { projectId, firstDay: new Date(now.getTime() - 90 * 86_400_000).toISOString().slice(0, 10) },
  );
  return pages + trend;
}

/**
 * export (full): the window's checked days (the columns), then per keyword its day cells (each day's
 * latest successful check, empty without one) as one text, and its latest two successful checks up to
 * the window's end (SERP, URL, Change). One row per keyword. The cells as text and the picks by
 * LIMIT BY in sort order are what a year costs least to carry out of ClickHouse (measured on the
 * bench's year: 1.45 s of CPU for day arrays picked by argMax, 0.72 s for this), so the baseline is
 * the best plain query, not a slower one the endpoint would look good against.
 */
export async function rawFullExport(store: ReadStore, run: SqlRunner, projectId: string, window: Window): Promise<number> {
  const params = { projectId, ...window };
  const days = await store.query<{ day: string }>(
    `SELECT DISTINCT toDate(checked_at) AS day FROM keyword_updates
     WHERE project_id = {projectId:String} AND status = 'success'
       AND checked_at >= {from:DateTime64(3, 'UTC')} AND checked_at < {to:DateTime64(3, 'UTC')}
     ORDER BY day DESC`,
    params,
  );
  const columns = days.length;
  return run(
    `SELECT keyword_id, cells, latest
     FROM (
       SELECT keyword_id,
              arrayStringConcat(groupArrayInsertAt('', ${columns})(toString(position), transform(day, {days:Array(Date)}, range(${columns}), ${columns})), ';') AS cells
       FROM (
         SELECT keyword_id, toDate(checked_at) AS day, position
         FROM keyword_updates
         WHERE project_id = {projectId:String} AND status = 'success'
           AND checked_at >= {from:DateTime64(3, 'UTC')} AND checked_at < {to:DateTime64(3, 'UTC')}
         ORDER BY keyword_id, day, checked_at DESC, check_id DESC
         LIMIT 1 BY keyword_id, day
       )
       GROUP BY keyword_id
     ) AS d
     LEFT JOIN (
       SELECT keyword_id, groupArray((checked_at, position, url)) AS latest
       FROM (
         SELECT keyword_id, checked_at, position, url
         FROM keyword_updates
         WHERE project_id = {projectId:String} AND status = 'success' AND checked_at < {to:DateTime64(3, 'UTC')}
         ORDER BY keyword_id, checked_at DESC, check_id DESC
         LIMIT 2 BY keyword_id
       )
       GROUP BY keyword_id
     ) AS l USING keyword_id
     ORDER BY keyword_id`,
    { ...params, days: days.map((d) => d.day) },
  );
}

/**
 * export (summary): per keyword, over the window's days (each day's latest successful check), the
 * checked days, the days not ranking, best, worst and average of the ranked days, and its latest two
 * successful checks up to the window's end (Current, Change, URL). One row per keyword. The day
 * figures come from keyword_day_checks, the latest two checks from keyword_updates (they need the URL).
 */
export async function rawSummaryExport(run: SqlRunner, projectId: string, window: Window): Promise<number> {
  return run(
    `SELECT keyword_id, checked_days, not_ranking, best, worst, average, latest
     FROM (
       SELECT keyword_id, count() AS checked_days, countIf(position = 0) AS not_ranking,
              minIf(position, position > 0) AS best, maxIf(position, position > 0) AS worst, avgIf(position, position > 0) AS average
       FROM (${PICKS('day', 'AND succeeded = 1 AND day BETWEEN {firstDay:Date} AND {lastDay:Date}')})
       GROUP BY keyword_id
     ) AS d
     LEFT JOIN (
       SELECT keyword_id, arraySlice(arrayReverseSort(x -> x.1, groupArray((checked_at, position, url))), 1, 2) AS latest
       FROM keyword_updates
       WHERE project_id = {projectId:String} AND status = 'success' AND checked_at < {to:DateTime64(3, 'UTC')}
       GROUP BY keyword_id
     ) AS l USING keyword_id
     ORDER BY keyword_id`,
    { projectId, ...window, ...dayRange(window) },
  );
}
