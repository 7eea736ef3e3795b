import { Inject, Injectable } from '@nestjs/common';
import { readingFor, type ReadStore } from '@rank/read-store/read-store.port';
import { READ_STORE } from '@rank/platform/tokens';
import { addDays } from '../reads/shared/day-window';
import { KeywordFilter, keywordFilterSql } from '../reads/shared/keyword-filter';

/** A statement's keywords as a list of ids (`keywordIds`): the pages of an export, the few keywords of a fallback. */
const LISTED = 'AND keyword_id IN {keywordIds:Array(String)}';

/** How far before the export's last day the first look for each keyword's latest two checks goes. */
const RECENT_DAYS = 35;

/** Which checks a look for the latest two reads: on or before `asOfDay`, from the day `since`, before the day `before`; each bound when given. */
interface CheckBounds {
  asOfDay?: string;
  since?: string;
  before?: string;
}

/** The first look's window: the RECENT_DAYS up to `asOfDay`. */
type RecentWindow = Required<Pick<CheckBounds, 'asOfDay' | 'since'>>;

const recentWindow = (asOfDay: string): RecentWindow => ({ asOfDay, since: addDays(asOfDay, -RECENT_DAYS) });

/** Inclusive range of UTC days, `YYYY-MM-DD`. */
export interface DayRange {
  startDate: string;
  endDate: string;
}

/** A keyword's latest successful check and the position of the one before it. */
export interface LatestCheck {
  position: number;
  url: string;
  day: string;
  /** null when there is no earlier successful check. */
  previousPosition: number | null;
}

/**
 * The ranking reads the exports need, from `keyword_updates` (successful checks only: a failed check
 * is never "not ranking"). Every query takes an explicit list of keyword ids so that callers can page
 * through a project: chDB buffers a whole result, so one giant query would hold the whole project.
 * No FINAL: a check's row never changes, so the only duplicates are replays of the same check, which
 * argMax, min and DISTINCT see through; FINAL doubled the time of the paged queries.
 */
@Injectable()
export class RankingHistoryReader {
  constructor(@Inject(READ_STORE) private readonly store: ReadStore) {}

  /** This reader for one caller: its reads are not started once the caller has gone (`signal`). */
  forCaller(signal: AbortSignal): RankingHistoryReader {
    return new RankingHistoryReader(readingFor(this.store, signal));
  }

  /** Days (newest first) with at least one successful check of one of the keywords in the range. */
  async checkedDays(projectId: string, keywordIds: readonly string[], range: DayRange): Promise<string[]> {
    if (keywordIds.length === 0) return [];
    const rows = await this.store.query<{ day: string }>(
      `SELECT DISTINCT toString(toDate(checked_at)) AS day
       FROM keyword_updates
       WHERE project_id = {projectId:String} AND keyword_id IN {keywordIds:Array(String)} AND status = 'success'
         AND toDate(checked_at) BETWEEN {startDate:Date} AND {endDate:Date}
       ORDER BY day DESC`,
      { projectId, keywordIds, ...range },
    );
    return rows.map((r) => r.day);
  }

  /**
   * What the full export needs of some keywords, in one statement: their day cells (dayCellsSql) and
   * their latest two successful checks as of the range's last day (as latestChecks). One statement
   * reads one set of ClickHouse's parts, so a check that lands while the export runs is in both a
   * line's day cells and its SERP, URL and Change, or in neither: as two statements, a check written
   * between them could show in the latest columns and not in the last day's cell. Like summaries, it
   * also lets chDB run the two sides side by side, where its binding runs two statements one after
   * the other. The keywords with fewer than two checks in the recent window have their earlier checks
   * read by a second statement (withOlderChecks), as latestChecks does; it reads only checks before
   * that window, which a check landing now never is.
   */
  async fullExportPage(
    projectId: string,
    keywordIds: readonly string[],
    range: DayRange,
    days: readonly string[],
    separator: string,
  ): Promise<{ cells: Map<string, string>; latest: Map<string, LatestCheck> }> {
    const cells = new Map<string, string>();
    if (keywordIds.length === 0) return { cells, latest: new Map() };
    if (days.length === 0) return { cells, latest: await this.latestChecks(projectId, keywordIds, range.endDate) };
    const window = recentWindow(range.endDate);
    const rows = await this.store.query<(DayCellsRow & { kind: 'cells' }) | (LastTwoChecksRow & { kind: 'latest' })>(
      `SELECT 'cells' AS kind, keywordId, cells, [] AS checks FROM (${dayCellsSql(days.length)})
       UNION ALL
       SELECT 'latest', keywordId, '', checks FROM (${lastTwoChecksSql(window, LISTED)})`,
      { projectId, keywordIds, ...range, days, separator, ...window },
    );
    const recent = new Map<string, LatestCheck>();
    for (const row of rows) {
      if (row.kind === 'cells') cells.set(row.keywordId, row.cells);
      else recent.set(row.keywordId, latestCheckOf(row.checks));
    }
    return { cells, latest: await this.withOlderChecks(projectId, keywordIds, window, recent) };
  }

  /** keywordId -> its day figures over the range (daySummariesSql). Keywords without a successful check in the range are absent. */
  async daySummaries(projectId: string, keywordIds: readonly string[], range: DayRange): Promise<Map<string, DaySummary>> {
    const byKeyword = new Map<string, DaySummary>();
    if (keywordIds.length === 0) return byKeyword;
    const rows = await this.store.query<DaySummaryRow>(daySummariesSql(LISTED), { projectId, keywordIds, ...range });
    for (const row of rows) byKeyword.set(row.keywordId, daySummaryOf(row));
    return byKeyword;
  }

  /**
   * What the summary export needs of some keywords, in one statement: their day figures over the
   * range (as daySummaries) and their latest two successful checks as of its last day (as
   * latestChecks). On chDB two statements run one after the other, whatever the caller does (its
   * Node binding runs parameterised statements one at a time), while the two sides of one UNION ALL
   * run side by side: on the bench's year 600 ms for the pair, 534 ms for the one statement (medians
   * of 7, alternated).
   *
   * `counted` picks the rows of `keywordIds`: by default the list itself; when `keywordIds` are all
   * the project's current keywords, the project's keyword filter says the same without a list of
   * 3,500 ids for ClickHouse to parse twice (the bench's year: 510-579 ms → 437-483 ms).
   */
  async summaries(
    projectId: string,
    keywordIds: readonly string[],
    range: DayRange,
    counted: KeywordFilter = { kind: 'only', keywordIds },
  ): Promise<{ days: Map<string, DaySummary>; latest: Map<string, LatestCheck> }> {
    const days = new Map<string, DaySummary>();
    const recent = new Map<string, LatestCheck>();
    if (keywordIds.length === 0) return { days, latest: recent };
    const window = recentWindow(range.endDate);
    const filter = keywordFilterSql(counted);
    const rows = await this.store.query<(DaySummaryRow & { kind: 'days' }) | (LastTwoChecksRow & { kind: 'latest' })>(
      `SELECT 'days' AS kind, keywordId, checkedDays, rankedDays, best, worst, positionSum, [] AS checks FROM (${daySummariesSql(filter.sql)})
       UNION ALL
       SELECT 'latest', keywordId, 0, 0, 0, 0, 0, checks FROM (${lastTwoChecksSql(window, filter.sql)})`,
      { projectId, ...range, ...window, ...filter.params },
    );
    for (const row of rows) {
      if (row.kind === 'days') days.set(row.keywordId, daySummaryOf(row));
      else recent.set(row.keywordId, latestCheckOf(row.checks));
    }
    return { days, latest: await this.withOlderChecks(projectId, keywordIds, window, recent) };
  }

  /**
   * Each keyword's latest successful check on or before `asOfDay` (any time when omitted), with the
   * position of the successful check before it. Keywords never checked successfully are absent.
   *
   * With `asOfDay`, the RECENT_DAYS before it are read first: a keyword checked daily has both checks
   * there, and those one or two monthly partitions are a fraction of its year. Only keywords with
   * fewer than two checks there have their checks before it read, so the answer is the same.
   */
  async latestChecks(projectId: string, keywordIds: readonly string[], asOfDay?: string): Promise<Map<string, LatestCheck>> {
    if (keywordIds.length === 0) return new Map();
    if (asOfDay === undefined) return this.lastTwoChecks(projectId, keywordIds, {});
    const window = recentWindow(asOfDay);
    return this.withOlderChecks(projectId, keywordIds, window, await this.lastTwoChecks(projectId, keywordIds, window));
  }

  /**
   * `recent` completed: for the keywords with fewer than two checks in the recent window, the checks
   * before that window, read in a statement of their own. It reads only what lies before the window,
   * so each check of the window comes from the caller's statement alone, and a check that lands in
   * between (always in the window, unless a check months old is written late) is not picked up here.
   */
  private async withOlderChecks(
    projectId: string,
    keywordIds: readonly string[],
    window: RecentWindow,
    recent: Map<string, LatestCheck>,
  ): Promise<Map<string, LatestCheck>> {
    const incomplete = keywordIds.filter((id) => recent.get(id)?.previousPosition == null);
    if (incomplete.length === 0) return recent;
    const older = await this.lastTwoChecks(projectId, incomplete, { before: window.since });
    // Map order is not part of the answer (callers look keywords up), but keep the callers' order anyway.
    return new Map(
      keywordIds.flatMap((id) => {
        const check = followedBy(recent.get(id), older.get(id));
        return check ? [[id, check] as const] : [];
      }),
    );
  }

  private async lastTwoChecks(projectId: string, keywordIds: readonly string[], bounds: CheckBounds): Promise<Map<string, LatestCheck>> {
    const rows = await this.store.query<LastTwoChecksRow>(lastTwoChecksSql(bounds, LISTED), { projectId, keywordIds, ...bounds });
    return new Map(rows.map((row) => [row.keywordId, latestCheckOf(row.checks)]));
  }

  /**
   * How the project and each domain ranked on `day`, over every keyword's latest successful check of
   * that day: for the project, from the checks' own position (domain and aliases); for a domain, from
   * its best result (itself or a subdomain) in the stored results. Only results within `depth` (today's
   * serpTop) count: a check read 100 deep before the project went to 50 has results past it.
   */
  async standingsOn(
    projectId: string,
    keywordIds: readonly string[],
    day: string,
    domains: readonly string[],
    depth: number,
  ): Promise<{
    checkedKeywords: number;
    project: DomainStanding;
    domains: Map<string, DomainStanding>;
  }> {
    const params = { projectId, keywordIds, day, domains, depth };
    const latestOfDay = `
      SELECT keyword_id, argMax(check_id, (checked_at, check_id)) AS latest_check_id, argMax(position, (checked_at, check_id)) AS latest_position
      FROM keyword_updates
      WHERE project_id = {projectId:String} AND keyword_id IN {keywordIds:Array(String)} AND status = 'success'
        AND toDate(checked_at) = {day:Date}
      GROUP BY keyword_id`;
    // The average is taken over ranking keywords only; with none, avgIf would be nan.
    const [own] = await this.store.query<StandingRow & { checked: string }>(
      `SELECT count() AS checked, countIf(latest_position BETWEEN 1 AND {depth:UInt32}) AS ranking, countIf(latest_position BETWEEN 1 AND 3) AS top3,
              countIf(latest_position BETWEEN 1 AND 10) AS top10,
              ifNotFinite(avgIf(latest_position, latest_position BETWEEN 1 AND {depth:UInt32}), 0) AS average
       FROM (${latestOfDay})`,
      params,
    );
    const rows =
      domains.length === 0
        ? []
        : await this.store.query<StandingRow & { domain: string }>(
            `SELECT matched AS domain, count() AS ranking, countIf(best <= 3) AS top3, countIf(best <= 10) AS top10, avg(best) AS average
       FROM (
         SELECT keyword_id, arrayJoin(arrayFilter(d -> domain = d OR endsWith(domain, concat('.', d)), {domains:Array(String)})) AS matched,
                min(position) AS best
         FROM serp_results
         WHERE project_id = {projectId:String} AND toDate(checked_at) = {day:Date} AND position <= {depth:UInt32}
           AND check_id IN (SELECT latest_check_id FROM (${latestOfDay}))
         GROUP BY keyword_id, matched
       )
       GROUP BY matched`,
            params,
          );
    return {
      checkedKeywords: Number(own?.checked ?? 0),
      project: toStanding(own),
      domains: new Map(rows.map((r) => [r.domain, toStanding(r)])),
    };
  }
}

interface StandingRow {
  ranking: string;
  top3: string;
  top10: string;
  average: number;
}

const toStanding = (row: StandingRow | undefined): DomainStanding => ({
  ranking: Number(row?.ranking ?? 0),
  top3: Number(row?.top3 ?? 0),
  top10: Number(row?.top10 ?? 0),
  averagePosition: Number(row?.average ?? 0),
});

/** A keyword's successful days in a range: one position per day (its latest successful check). */
export interface DaySummary {
  checkedDays: number;
  /** The days it ranked (position > 0); the others are not ranking. */
  rankedDays: number;
  /** Over the ranked days; null when there are none. */
  best: number | null;
  worst: number | null;
  positionSum: number;
}

export interface DomainStanding {
  ranking: number;
  top3: number;
  top10: number;
  averagePosition: number;
}

/**
 * Each keyword's day cells of the full export as one text: for each of the `columns` days (`days`, the
 * header's columns), the position of that day's latest successful check, empty without one, joined by
 * the separator. Keywords without a successful check among the days are absent.
 *
 * ClickHouse writes the text, so a keyword's year travels as one string instead of 365 day strings
 * and numbers to parse and format again (measured on the bench's year: 3.5 s into JavaScript as
 * arrays, about 0.4 s as text). The day's latest successful check comes folded from
 * keyword_day_picks (migration 013) under FINAL, as for the summary's day figures.
 *
 * Only `days` are read: the columns were read before (checkedDays), and a check that lands on a new
 * day in between belongs to no column. It is left out, so the export matches its header; it used to
 * be a "stray" cell that failed the export after its header had gone out. groupArrayInsertAt takes
 * its length as a literal: `columns` is our own count of the days, not input; transform's default is
 * never taken, since only `days` are read.
 */
const dayCellsSql = (columns: number) => `
  SELECT keywordId, arrayStringConcat(groupArrayInsertAt('', ${columns})(toString(position), column), {separator:String}) AS cells
  FROM (
    SELECT keyword_id AS keywordId, pick.4 AS position, transform(day, {days:Array(Date)}, range(${columns}), 0) AS column
    FROM keyword_day_picks FINAL
    WHERE project_id = {projectId:String} ${LISTED}
      AND day BETWEEN {startDate:Date} AND {endDate:Date} AND day IN {days:Array(Date)} AND pick.1 = 1
  )
  GROUP BY keywordId`;

interface DayCellsRow {
  keywordId: string;
  cells: string;
}

/**
 * Each keyword's day figures over {startDate, endDate}: over each day's latest successful check (the
 * day cells of the full export), summed up in ClickHouse so that a keyword's year travels as one row.
 * The day's pick comes folded from keyword_day_picks (migration 013) under FINAL; a day whose pick
 * failed had no success. Picking from keyword_day_checks with LIMIT 1 BY keyword and day took 440-500
 * ms of the bench's year for its hash of 1.28 M keyword-days, FINAL 110-130 ms.
 */
const daySummariesSql = (counted: string) => `
  SELECT keyword_id AS keywordId, count() AS checkedDays, countIf(position > 0) AS rankedDays,
         minIf(position, position > 0) AS best, maxIf(position, position > 0) AS worst, sumIf(position, position > 0) AS positionSum
  FROM (
    SELECT keyword_id, pick.4 AS position
    FROM keyword_day_picks FINAL
    WHERE project_id = {projectId:String} ${counted} AND day BETWEEN {startDate:Date} AND {endDate:Date} AND pick.1 = 1
  )
  GROUP BY keyword_id`;

interface DaySummaryRow {
  keywordId: string;
  checkedDays: string;
  rankedDays: string;
  best: number;
  worst: number;
  positionSum: string;
}

function daySummaryOf(row: DaySummaryRow): DaySummary {
  const rankedDays = Number(row.rankedDays);
  return {
    checkedDays: Number(row.checkedDays),
    rankedDays,
    // minIf and maxIf give 0 when the keyword never ranked.
    best: rankedDays === 0 ? null : Number(row.best),
    worst: rankedDays === 0 ? null : Number(row.worst),
    positionSum: Number(row.positionSum),
  };
}

/**
 * Each keyword's latest two successful checks on or before `asOfDay` (any time without it) and from
 * the day `since` (any time without it), as one row: (checked_at, check_id, position, url, day)
 * tuples, newest first, sorted in the row itself so that no row order has to survive the query.
 * DISTINCT, because a replayed check is a second identical row until ClickHouse merges it, and it
 * would pose as "the check before".
 */
const lastTwoChecksSql = (bounds: CheckBounds, counted: string) => `
  SELECT keywordId, arrayReverseSort(groupArray((checked_at, check_id, position, url, day))) AS checks
  FROM (
    SELECT DISTINCT keyword_id AS keywordId, checked_at, check_id, position, url, toString(toDate(checked_at)) AS day
    FROM keyword_updates
    WHERE project_id = {projectId:String} ${counted} AND status = 'success'
      ${bounds.asOfDay === undefined ? '' : 'AND toDate(checked_at) <= {asOfDay:Date}'}
      ${bounds.since === undefined ? '' : "AND checked_at >= toDateTime64({since:Date}, 3, 'UTC')"}
      ${bounds.before === undefined ? '' : "AND checked_at < toDateTime64({before:Date}, 3, 'UTC')"}
    ORDER BY keywordId, checked_at DESC, check_id DESC
    LIMIT 2 BY keywordId
  )
  GROUP BY keywordId`;

/** A (checked_at, check_id, position, url, day) tuple as JSON gives it. */
type CheckTuple = [string, string, number, string, string];

interface LastTwoChecksRow {
  keywordId: string;
  /** Newest first; one or two. */
  checks: CheckTuple[];
}

/**
 * A keyword's latest two checks from the recent window's and from the earlier checks': the window's
 * are the newer. Its latest, with the earlier checks' latest as the one before when the window holds
 * one check; without one in the window, the earlier checks' own latest two.
 */
function followedBy(recent: LatestCheck | undefined, older: LatestCheck | undefined): LatestCheck | undefined {
  if (!recent) return older;
  return { ...recent, previousPosition: recent.previousPosition ?? older?.position ?? null };
}

function latestCheckOf([latest, previous]: CheckTuple[]): LatestCheck {
  return { position: Number(latest![2]), url: latest![3], day: latest![4], previousPosition: previous ? Number(previous[2]) : null };
}
