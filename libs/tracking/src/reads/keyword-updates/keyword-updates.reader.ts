import { Inject, Injectable } from '@nestjs/common';
import type { ReadStore } from '@rank/read-store/read-store.port';
import { READ_STORE } from '@rank/platform/tokens';
import { addDays, DayWindow, mondayOf } from '../shared/day-window';
import { PICKS_FIRST } from '../shared/day-checks';

export const AGGREGATIONS = ['daily', 'weekly', 'monthly'] as const;
export type Aggregation = (typeof AGGREGATIONS)[number];

/** The period each aggregation reduces a day to; UTC days, ISO weeks (Monday start), calendar months. */
const PERIOD_OF: Record<Aggregation, string> = {
  daily: 'day',
  weekly: 'toMonday(day)',
  monthly: 'toStartOfMonth(day)',
};

/**
 * The whole ISO weeks inside a window (Mondays, `afterLastWeek` the Monday after the last), or none
 * when the window holds no whole week (then firstWeek > lastWeek, which selects nothing, and the day
 * checks cover every day).
 */
function wholeWeeksOf(window: DayWindow): { firstWeek: string; lastWeek: string; afterLastWeek: string } {
  const startMonday = mondayOf(window.startDate);
  const firstWeek = startMonday === window.startDate ? startMonday : addDays(startMonday, 7);
  const afterLastWeek = mondayOf(addDays(window.endDate, 1));
  return { firstWeek, lastWeek: addDays(afterLastWeek, -7), afterLastWeek };
}

/** The ranking result a check found for the project; checks that share one share this object. */
export interface RankingPage {
  url: string;
  title: string;
  domain: string;
}

/** The check chosen for one keyword and period, with its page as a key into `KeywordUpdateRows.pages`. */
export interface PickedCheck {
  checkId: string;
  checkedAtMs: number;
  succeeded: boolean;
  position: number;
  pageKey: string;
  hasAiOverview: boolean;
}

export interface KeywordUpdateRows {
  /** Keyword id -> its picked checks, oldest first (checked_at, then check id). Keywords without any are absent. */
  byKeyword: Map<string, PickedCheck[]>;
  /** Page key -> the page. */
  pages: Map<string, RankingPage>;
}

/** One keyword's picks as ClickHouse returns them: [checkedAtMs, checkId, succeeded, position, pageKey, hasAiOverview]. */
type PickTuple = [string, string, number, number, string, number];

/**
 * One check per keyword and period, from `keyword_day_checks` (migration 011: every check, narrow,
 * kept by a materialized view on keyword_updates). Daily picks a day's latest successful check, else
 * its latest failed one; weekly and monthly read successes only and pick the period's latest. Both
 * are `LIMIT 1 BY` over the rows in the picking order (PICKS_FIRST), so ClickHouse reads the table in
 * its own order and keeps the first row of each period, with no aggregation. A check stored twice (a
 * replayed event) is an identical row, never picked twice.
 *
 * The picks carry a 64-bit key of the check's page (url, title, domain) instead of the strings, one
 * row per keyword; the pages of those keys come from `ranking_pages` in a second query, so each page
 * travels and is escaped once.
 */
@Injectable()
export class KeywordUpdatesReader {
  constructor(@Inject(READ_STORE) private readonly store: ReadStore) {}

  /**
   * `keywordIds` narrows the scan when a filter chose some keywords; undefined reads the whole
   * project (the caller drops keywords that are no longer tracked). The window is whole UTC days.
   */
  async run(projectId: string, window: DayWindow, aggregation: Aggregation, keywordIds?: readonly string[]): Promise<KeywordUpdateRows> {
    const weekBounds = aggregation === 'weekly' ? wholeWeeksOf(window) : undefined;
    const params = {
      projectId,
      firstDay: window.startDate,
      lastDay: window.endDate,
      ...(weekBounds ?? {}),
      ...(keywordIds ? { keywordIds } : {}),
    };
    const ofKeywords = keywordIds ? 'AND keyword_id IN {keywordIds:Array(String)}' : '';
    const fromDayChecks = (days: string) => `
      SELECT keyword_id, day, checked_at, check_id, succeeded, position, page_key, has_ai_overview
      FROM keyword_day_checks
      WHERE project_id = {projectId:String} AND ${days} ${aggregation === 'daily' ? '' : 'AND succeeded = 1'} ${ofKeywords}
      ${PICKS_FIRST}
      LIMIT 1 BY keyword_id, ${PERIOD_OF[aggregation]}`;
    // Weekly: the whole weeks of the window from keyword_week_picks (a row per keyword and week once
    // merged, instead of seven), the partial weeks at its ends from the day checks of those days.
    const periodPicks = !weekBounds
      ? fromDayChecks('day BETWEEN {firstDay:Date} AND {lastDay:Date}')
      : `SELECT keyword_id, week AS day, pick.1 AS checked_at, pick.2 AS check_id, toUInt8(1) AS succeeded, pick.3 AS position, pick.4 AS page_key,
                pick.5 AS has_ai_overview
         FROM keyword_week_picks
         WHERE project_id = {projectId:String} AND week BETWEEN {firstWeek:Date} AND {lastWeek:Date} ${ofKeywords}
         ORDER BY keyword_id, week, pick DESC
         LIMIT 1 BY keyword_id, week
         UNION ALL
         ${fromDayChecks('(day < {firstWeek:Date} OR day >= {afterLastWeek:Date}) AND day BETWEEN {firstDay:Date} AND {lastDay:Date}')}`;
    // arraySort of (checked_at ms, check_id, ...) tuples: oldest first, ties by check id, whatever
    // order the aggregation met the rows in. The pages are asked for side by side: those of every
    // successful check in the window, a few more than the picks need and never one less.
    const [picks, pages] = await Promise.all([
      this.store.query<{ keywordId: string; picks: PickTuple[] }>(
        `SELECT keyword_id AS keywordId,
                arraySort(groupArray((toUnixTimestamp64Milli(checked_at), check_id, succeeded, position, page_key, has_ai_overview))) AS picks
         FROM (${periodPicks})
         GROUP BY keyword_id`,
        params,
      ),
      // LIMIT 1 BY: the same page may sit in parts ClickHouse has not merged yet.
      this.store.query<{ pageKey: string; url: string; title: string; domain: string }>(
        `SELECT toString(page_key) AS pageKey, url, title, domain
         FROM ranking_pages
         WHERE project_id = {projectId:String} AND page_key IN (
           SELECT page_key FROM keyword_day_checks
           WHERE project_id = {projectId:String} AND day BETWEEN {firstDay:Date} AND {lastDay:Date} AND succeeded = 1 ${ofKeywords}
         )
         LIMIT 1 BY page_key`,
        params,
      ),
    ]);
    const byKeyword = new Map<string, PickedCheck[]>();
    for (const row of picks) {
      byKeyword.set(
        row.keywordId,
        row.picks.map(([checkedAtMs, checkId, succeeded, position, pageKey, hasAiOverview]) => ({
          checkId,
          checkedAtMs: Number(checkedAtMs),
          succeeded: succeeded === 1,
          position,
          pageKey,
          hasAiOverview: hasAiOverview === 1,
        })),
      );
    }
    return { byKeyword, pages: new Map(pages.map((p) => [p.pageKey, { url: p.url, title: p.title, domain: p.domain }])) };
  }
}
