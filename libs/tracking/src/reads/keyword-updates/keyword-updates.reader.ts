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

/**
 * One keyword's picked checks, oldest first (checked_at, then check id), as the bytes of its
 * `updates` JSON array's text, written by ClickHouse: each successful update's page is a placeholder,
 * PAGE_MARK + page key + PAGE_MARK, where its `,"url":…,"title":…,"domain":…}` goes (see
 * keyword-updates-json.ts). ClickHouse formats the ids, dates and positions in far less time than
 * parsing a tuple per check into JavaScript and formatting it there, and the bytes go to the socket
 * as they came, never decoded into a string and encoded back.
 */
export interface KeywordPicks {
  updatesJson: Buffer;
  /** Position of the latest successful pick: 0 = not ranking, null = no successful pick in the window. */
  latestPosition: number | null;
}

export interface KeywordUpdateRows {
  /** Keyword id -> its picks. Keywords without any are absent. */
  byKeyword: Map<string, KeywordPicks>;
  /** Page key -> the page. */
  pages: Map<string, RankingPage>;
}

/** Brackets a page key in `updatesJson`: a control character, which JSON text always escapes, so it never occurs in an id or date. */
export const PAGE_MARK = 0x01;

/**
 * One update of the answer (keys in the documented order, as JSON.stringify gives them) from a
 * tuple (ms, check_id, succeeded, position, page_key, has_ai_overview, checked_at). A check id goes
 * through toJSONString, so any id is valid JSON; the date is checked_at in UTC as toISOString writes it.
 */
const UPDATE_JSON = `if(t.3 = 1,
    concat('{"_id":', toJSONString(t.2), ',"date":"', replaceOne(toString(t.7, 'UTC'), ' ', 'T'), 'Z","status":"success","position":{"position":',
           toString(t.4), '\\x01', toString(t.5), '\\x01,"aiSerpId":', if(t.6 = 1, toJSONString(t.2), 'null'), '}'),
    concat('{"_id":', toJSONString(t.2), ',"date":"', replaceOne(toString(t.7, 'UTC'), ' ', 'T'), 'Z","status":"failed","position":null,"aiSerpId":null}'))`;

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
    // order the aggregation met the rows in. The pages are asked for at once (side by side on a
    // server; chDB runs parameterised statements one at a time): those of every successful check in
    // the window, a few more than the picks need and never one less.
    // TabSeparatedRaw: the updates' text comes out as ClickHouse wrote it, not escaped into a JSON
    // answer and parsed back (a third of the read's time for 30 days). JSON text holds no raw tab or
    // newline, nor do ids and numbers, so a row is its line and its values the tab-separated parts.
    const [picks, pages] = await Promise.all([
      this.store.queryRaw(
        `SELECT keyword_id, ifNull(toString(latest_position), 'null'), arrayStringConcat(arrayMap(t -> ${UPDATE_JSON}, picks), ',')
         FROM (
           SELECT keyword_id,
                  arraySort(groupArray((toUnixTimestamp64Milli(checked_at), check_id, succeeded, position, page_key, has_ai_overview, checked_at))) AS picks,
                  arrayFilter(t -> t.3 = 1, picks) AS successes,
                  if(empty(successes), NULL, successes[-1].4) AS latest_position
           FROM (${periodPicks})
           GROUP BY keyword_id
         )`,
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
    return {
      byKeyword: picksByKeyword(picks),
      pages: new Map(pages.map((p) => [p.pageKey, { url: p.url, title: p.title, domain: p.domain }])),
    };
  }
}

const TAB = 0x09;
const NEWLINE = 0x0a;

/** The picks query's lines (keyword id, latest position, updates), the updates kept as slices of the bytes. */
function picksByKeyword(picks: Buffer): Map<string, KeywordPicks> {
  const byKeyword = new Map<string, KeywordPicks>();
  let start = 0;
  while (start < picks.length) {
    const newline = picks.indexOf(NEWLINE, start);
    const end = newline === -1 ? picks.length : newline;
    const afterId = picks.indexOf(TAB, start);
    const afterPosition = picks.indexOf(TAB, afterId + 1);
    const position = picks.toString('latin1', afterId + 1, afterPosition);
    byKeyword.set(picks.toString('utf8', start, afterId), {
      latestPosition: position === 'null' ? null : Number(position),
      updatesJson: picks.subarray(afterPosition + 1, end),
    });
    start = end + 1;
  }
  return byKeyword;
}
