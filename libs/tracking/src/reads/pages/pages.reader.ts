import { Inject, Injectable } from '@nestjs/common';
import { readingFor, type ReadStore } from '@rank/read-store/read-store.port';
import { READ_STORE } from '@rank/platform/tokens';
import { PICKS_FIRST } from '../shared/day-checks';
import { KeywordFilter, keywordFilterSql } from '../shared/keyword-filter';

export interface LatestPositionRow {
  keywordId: string;
  position: number;
  url: string;
  checkedAtMs: string;
}

/** One page in one period: the average position of the keywords it ranked for, and how many. */
export interface PeriodRow {
  url: string;
  /** `YYYY-MM-DD`: a day, or the Monday of a week. */
  period: string;
  avgPosition: number;
  keywordCount: number;
}

/** A row of the overview statement: a point of the weekly or daily series, a page's first day (its `period`), or a latest check. */
interface TrendRow extends PeriodRow {
  series: 'latest' | 'week' | 'day' | 'first';
}

export interface Trends {
  weekly: PeriodRow[];
  daily: PeriodRow[];
  /** `firstDay`: `YYYY-MM-DD`, the first day in the window the page ranked. */
  firstDays: { url: string; firstDay: string }[];
}

export interface TrendWindow {
  /** Start of the first trend week (a Monday, 00:00 UTC). */
  from: Date;
  /** End of today (exclusive). */
  to: Date;
  /** First day of the daily series. */
  dailyFrom: string;
}

/**
 * Each keyword's latest successful check per `period` (an expression of `day`), from
 * keyword_day_checks (migration 011): LIMIT 1 BY over the rows in the picking order, the latest by
 * (checked_at, check_id). A replayed check is an identical row, never picked twice.
 */
const latestSuccessPer = (period: string, scope: string) => `
  SELECT keyword_id, ${period} AS bucket, checked_at, position, page_key
  FROM keyword_day_checks
  WHERE project_id = {projectId:String} AND succeeded = 1 ${scope}
  ${PICKS_FIRST}
  LIMIT 1 BY keyword_id, bucket`;

/** Each page key's URL (ranking_pages may hold a page twice until ClickHouse merges it). */
const PAGE_URLS = `SELECT page_key, any(url) AS page_url FROM ranking_pages WHERE project_id = {projectId:String} GROUP BY page_key`;

/**
 * Per page and period: the average position of the keywords whose latest successful check of the
 * period ranked with that page, and how many they were. Each keyword speaks once per period (its
 * latest successful check there), only the project's current keywords count, and a keyword at 0
 * counts for no page. The window's bounds are whole UTC days.
 */
const periodAverages = (series: 'week' | 'day', picks: string) => `
  SELECT '${series}' AS series, page_url AS url, toString(bucket) AS period, avg(position) AS avgPosition, toUInt32(count()) AS keywordCount
  FROM (${picks}) AS picks
  JOIN (${PAGE_URLS}) AS pages ON pages.page_key = picks.page_key
  WHERE position > 0
  GROUP BY page_url, bucket`;

/** The Monday of the window's last day: its week may be partial, so it is read from the day checks. */
const LAST_WEEK = "toMonday(toDate({to:DateTime64(3, 'UTC')}) - 1)";

/**
 * Each keyword's latest successful check per week of the trend window (which starts on a Monday):
 * the weeks before the last from keyword_week_picks (one row per keyword and week once merged; the
 * max of the rows not merged yet), the last week, which may not be over, from the day checks.
 */
const weeklyPicks = (counted: string) => `
  SELECT keyword_id, week AS bucket, pick.1 AS checked_at, pick.3 AS position, pick.4 AS page_key
  FROM keyword_week_picks
  WHERE project_id = {projectId:String} AND week >= toDate({from:DateTime64(3, 'UTC')}) AND week < ${LAST_WEEK} ${counted}
  ORDER BY keyword_id, week, pick DESC
  LIMIT 1 BY keyword_id, week
  UNION ALL
  ${latestSuccessPer('toMonday(day)', `AND day >= ${LAST_WEEK} AND day < toDate({to:DateTime64(3, 'UTC')}) ${counted}`)}`;

const dailyPicks = (counted: string) =>
  latestSuccessPer('day', `AND day >= {dailyFrom:Date} AND day < toDate({to:DateTime64(3, 'UTC')}) ${counted}`);

/**
 * The first day in the window each page ranked (position > 0) for a counted keyword, as a row with
 * that day for its period: from the narrow day checks, the first day per page key first, then per URL.
 */
const firstDays = (counted: string) => `
  SELECT 'first' AS series, page_url AS url, toString(min(first_day)) AS period, 0 AS avgPosition, toUInt32(0) AS keywordCount
  FROM (
    SELECT page_key, min(day) AS first_day
    FROM keyword_day_checks
    WHERE project_id = {projectId:String} AND succeeded = 1 AND position > 0
      AND day >= toDate({from:DateTime64(3, 'UTC')}) AND day < toDate({to:DateTime64(3, 'UTC')}) ${counted}
    GROUP BY page_key
  ) AS firsts
  JOIN (${PAGE_URLS}) AS pages ON pages.page_key = firsts.page_key
  GROUP BY page_url`;

/** How far back the first look for each keyword's latest check goes: this month's and last month's partitions. */
const RECENT_DAYS = 35;

/** Each keyword's latest successful check in the `narrowed` rows, with its page's URL (empty at position 0 without a page). */
const latestSql = (narrowed: string) => `
  SELECT keyword_id AS keywordId, position, page_url AS url, toString(toUnixTimestamp64Milli(checked_at)) AS checkedAtMs
  FROM (${latestSuccessPer('0', narrowed)}) AS picks
  LEFT JOIN (${PAGE_URLS}) AS pages ON pages.page_key = picks.page_key`;

/** From the day of `since`: a few hours more than since itself, which finds the same latest checks. */
const SINCE = "AND day >= toDate({since:DateTime64(3, 'UTC')})";

/**
 * The pages read in one statement: each keyword's latest successful check of the last RECENT_DAYS
 * (`latest` rows: keyword, position in avgPosition, moment in period) beside the three trend series
 * of every page. chDB runs a connection's statements one after another but the sides of a UNION ALL
 * side by side; the trends do not wait for the pages the latest checks name, they are read for every
 * page the counted keywords ranked with in the window (a superset) and the caller keeps its pages.
 */
const overviewSql = (counted: string) =>
  [
    `SELECT 'latest' AS series, keywordId, url, checkedAtMs AS period, toFloat64(position) AS avgPosition, toUInt32(0) AS keywordCount
     FROM (${latestSql(SINCE)})`,
    ...[periodAverages('week', weeklyPicks(counted)), periodAverages('day', dailyPicks(counted)), firstDays(counted)].map(
      (side) => `SELECT series, '' AS keywordId, url, period, avgPosition, keywordCount FROM (${side})`,
    ),
  ].join('\nUNION ALL\n');

/** What the pages read needs: each tracked keyword's latest successful check, and every page's trends. */
export interface PagesOverview {
  /** The caller drops untracked keywords. */
  latest: LatestPositionRow[];
  trends: Trends;
}

/** Rankings per page, reduced in ClickHouse to one row per keyword or per page and period. */
@Injectable()
export class PagesReader {
  constructor(@Inject(READ_STORE) private readonly store: ReadStore) {}

  /** This reader for one caller: its reads are not started once the caller has gone (`signal`). */
  forCaller(signal: AbortSignal): PagesReader {
    return new PagesReader(readingFor(this.store, signal));
  }

  /**
   * The latest checks and the trends in one statement (overviewSql): 161-215 ms against 191-207 ms for
   * the two one after the other, on the bench's year. The latest checks are looked for in the last
   * RECENT_DAYS first: a keyword checked there has its latest check among them, and those few
   * partitions are a fraction of a year's rows (measured on the bench project: 42 ms of CPU instead of
   * 543). Only the tracked keywords with no check there are looked up over their whole history, so
   * the answer is the same as one scan of everything.
   *
   * The trends per page: the weekly series over the whole trend window, the daily series over its
   * last 14 days, and the first day in the window it ranked for any counted keyword. Three narrow
   * reductions, each reading only the days it needs, rather than one per day over 90 days.
   */
  async overview(
    projectId: string,
    tracked: readonly string[],
    keywords: KeywordFilter,
    window: TrendWindow,
    now: Date,
  ): Promise<PagesOverview> {
    const counted = keywordFilterSql(keywords);
    const rows = await this.store.query<TrendRow & { keywordId: string }>(overviewSql(counted.sql), {
      projectId,
      since: new Date(now.getTime() - RECENT_DAYS * 86_400_000),
      from: window.from,
      to: window.to,
      dailyFrom: window.dailyFrom,
      ...counted.params,
    });
    const recent: LatestPositionRow[] = [];
    const trends: Trends = { weekly: [], daily: [], firstDays: [] };
    for (const { series, keywordId, url, period, avgPosition, keywordCount } of rows) {
      if (series === 'latest') recent.push({ keywordId, position: Number(avgPosition), url, checkedAtMs: period });
      else if (series === 'first') trends.firstDays.push({ url, firstDay: period });
      else (series === 'week' ? trends.weekly : trends.daily).push({ url, period, avgPosition, keywordCount });
    }
    const found = new Set(recent.map((row) => row.keywordId));
    const older = tracked.filter((id) => !found.has(id));
    const latest = older.length === 0 ? recent : [...recent, ...(await this.latestOf(projectId, older))];
    return { latest, trends };
  }

  private latestOf(projectId: string, keywordIds: readonly string[]): Promise<LatestPositionRow[]> {
    return this.store.query<LatestPositionRow>(latestSql('AND keyword_id IN {keywordIds:Array(String)}'), { projectId, keywordIds });
  }
}
