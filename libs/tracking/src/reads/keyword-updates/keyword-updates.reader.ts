import { Inject, Injectable } from '@nestjs/common';
import { readingFor, type ReadStore } from '@rank/read-store/read-store.port';
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

/**
 * One keyword's picked checks, oldest first (checked_at, then check id), as the bytes of its
 * `updates` JSON array's text, written whole by ClickHouse: ids, dates, positions and each successful
 * update's page. ClickHouse formats them in far less time than parsing a tuple per check into
 * JavaScript and formatting it there, and the bytes go to the socket as they came, never decoded
 * into a string and encoded back.
 */
export interface KeywordPicks {
  updatesJson: Buffer;
  /** Position of the latest successful pick: 0 = not ranking, null = no successful pick in the window. */
  latestPosition: number | null;
}

/** Keyword id -> its picks. Keywords without any are absent. */
export type KeywordUpdateRows = Map<string, KeywordPicks>;

/**
 * Written where a picked check's page is missing from ranking_pages (which the same insert fills, so
 * never): a control character, which JSON text always escapes, so it never occurs in a valid answer.
 */
const MISSING_PAGE = 0x01;
/** MISSING_PAGE as a ClickHouse string literal, for transform's default. */
const MISSING_PAGE_SQL = `'\\x${MISSING_PAGE.toString(16).padStart(2, '0')}'`;

/**
 * A page's `,"url":…,"title":…,"domain":…}` as JSON text. Escaped by ClickHouse as JSON.stringify
 * escapes, but for U+2028 and U+2029, which ClickHouse writes as `\u2028` and `\u2029`: the same
 * strings once parsed. Forward slashes are left alone (output_format_json_escape_forward_slashes = 0
 * on the statement).
 */
const PAGE_FIELDS_JSON = `concat(',"url":', toJSONString(url), ',"title":', toJSONString(title), ',"domain":', toJSONString(domain), '}')`;

/**
 * One update of the answer (keys in the documented order, as JSON.stringify gives them) from a
 * tuple (ms, check_id, succeeded, position, page_key, has_ai_overview, checked_at), the page's fields
 * looked up by key in `pages` (keys, fields). A check id goes through toJSONString, so any id is valid
 * JSON; the date is checked_at in UTC as toISOString writes it.
 */
const UPDATE_JSON = `if(t.3 = 1,
    concat('{"_id":', toJSONString(t.2), ',"date":"', replaceOne(toString(t.7, 'UTC'), ' ', 'T'), 'Z","status":"success","position":{"position":',
           toString(t.4), transform(t.5, pages.1, pages.2, ${MISSING_PAGE_SQL}), ',"aiSerpId":', if(t.6 = 1, toJSONString(t.2), 'null'), '}'),
    concat('{"_id":', toJSONString(t.2), ',"date":"', replaceOne(toString(t.7, 'UTC'), ' ', 'T'), 'Z","status":"failed","position":null,"aiSerpId":null}'))`;

/**
 * One check per keyword and period, from `keyword_day_checks` (migration 011: every check, narrow,
 * kept by a materialized view on keyword_updates). Daily picks a day's latest successful check, else
 * its latest failed one; weekly and monthly read successes only and pick the period's latest. Both
 * are `LIMIT 1 BY` over the rows in the picking order (PICKS_FIRST), so ClickHouse reads the table in
 * its own order and keeps the first row of each period, with no aggregation. A check stored twice (a
 * replayed event) is an identical row, never picked twice.
 *
 * The picks carry a 64-bit key of the check's page (url, title, domain) instead of the strings; the
 * pages of the window's successful checks are read from `ranking_pages` once, escaped once, and put
 * in each update by key (transform), so each page is escaped once and the answer leaves ClickHouse whole.
 */
@Injectable()
export class KeywordUpdatesReader {
  constructor(@Inject(READ_STORE) private readonly store: ReadStore) {}

  /** This reader for one caller: its reads are not started once the caller has gone (`signal`). */
  forCaller(signal: AbortSignal): KeywordUpdatesReader {
    return new KeywordUpdatesReader(readingFor(this.store, signal));
  }

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
    // order the aggregation met the rows in. The pages: those of every successful check in the
    // window, a few more than the picks need and never one less (LIMIT 1 BY: the same page may sit
    // in parts ClickHouse has not merged yet).
    // TabSeparatedRaw: the updates' text comes out as ClickHouse wrote it, not escaped into a JSON
    // answer and parsed back (a third of the read's time for 30 days). JSON text holds no raw tab or
    // newline, nor do ids and numbers, so a row is its line and its values the tab-separated parts.
    const picks = await this.store.queryRaw(
      `WITH (
         SELECT (groupArray(page_key), groupArray(${PAGE_FIELDS_JSON}))
         FROM (
           SELECT page_key, url, title, domain
           FROM ranking_pages
           WHERE project_id = {projectId:String} AND page_key IN (
             SELECT page_key FROM keyword_day_checks
             WHERE project_id = {projectId:String} AND day BETWEEN {firstDay:Date} AND {lastDay:Date} AND succeeded = 1 ${ofKeywords}
           )
           LIMIT 1 BY page_key
         )
       ) AS pages
       SELECT keyword_id, ifNull(toString(latest_position), 'null'), arrayStringConcat(arrayMap(t -> ${UPDATE_JSON}, picks), ',')
       FROM (
         SELECT keyword_id,
                arraySort(groupArray((toUnixTimestamp64Milli(checked_at), check_id, succeeded, position, page_key, has_ai_overview, checked_at))) AS picks,
                arrayFilter(t -> t.3 = 1, picks) AS successes,
                if(empty(successes), NULL, successes[-1].4) AS latest_position
         FROM (${periodPicks})
         GROUP BY keyword_id
       )
       SETTINGS output_format_json_escape_forward_slashes = 0`,
      params,
    );
    if (picks.includes(MISSING_PAGE)) throw new Error('keyword-updates: the page of a picked check is missing from ranking_pages');
    return picksByKeyword(picks);
  }
}

const TAB = 0x09;
const NEWLINE = 0x0a;

/** The picks query's lines (keyword id, latest position, updates), the updates kept as slices of the bytes. */
function picksByKeyword(picks: Buffer): KeywordUpdateRows {
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
