import { Inject, Injectable } from '@nestjs/common';
import { readingFor, type ReadStore } from '@rank/read-store/read-store.port';
import { READ_STORE } from '@rank/platform/tokens';
import type { SerpItem } from './serp-movement';

/** Where a check id lives. */
export interface CheckLocation {
  projectId: string;
  keywordId: string;
  checkedAt: Date;
}

export interface CheckOutcome {
  status: string;
  /** The project's own best position (0 = not within the depth). */
  position: number;
  failureReason: string;
  /** The SERP source that answered (`browser`, `fetch-api`, `dataforseo`, `serpapi`); empty for a failed check. */
  source: string;
}

export interface CheckSnapshot {
  outcome: CheckOutcome;
  results: SerpItem[];
  aiOverview: SerpItem[];
  /** The previous successful check's whole result list; null when there is none. */
  previousResults: SerpItem[] | null;
}

/** One row of the snapshot query: a check_snapshots row, the check's outcome and its lists as parallel arrays. */
interface SnapshotRow {
  checkId: string;
  status: string;
  position: number;
  failureReason: string;
  source: string;
  positions: number[];
  urls: string[];
  titles: string[];
  domains: string[];
  aiPositions: number[];
  aiUrls: string[];
  aiTitles: string[];
  aiDomains: string[];
}

const millisOf = (row: { checkedAtMs: string }) => new Date(Number(row.checkedAtMs));

/**
 * How far back the previous successful check is looked for first: the longest schedule (biweekly)
 * plus two days, so that a keyword on any schedule finds it in one or two monthly partitions. Only
 * a keyword with no success in that window (a long failure streak, a first check) is read over its
 * whole history, with a second query.
 */
const PREVIOUS_CHECK_WINDOW_DAYS = 16;
const DAY_MS = 86_400_000;

/**
 * One read of check_snapshots (migration 014) for a check and the one before it: the keyword's
 * checks in the window, this check and the latest success strictly before it in (checked_at,
 * check_id) order, each a whole row (outcome, results, AI Overview sources). It stays inside the
 * keyword's slice of the (project_id, keyword_id, checked_at) sort key and the window's partitions.
 * A replayed check is a second row until ClickHouse merges it: LIMIT 1 BY folds those, the newest
 * version winning. This took 17-24 ms on the bench's seeded year where the previous statement, a pick
 * in keyword_updates and then serp_checks and ai_overview_sources, took 37-45 ms.
 * Planned by ClickHouse's previous query analyzer: for a read this small the planning is much of
 * the cost, and the old analyzer's is cheaper (18.8-22.5 against 21.4-26.0 ms, four alternations of
 * 30 checks; the same rows).
 */
const snapshotSql = (windowed: boolean) => `
SELECT check_id AS checkId, status, position, failure_reason AS failureReason, source,
       positions, urls, titles, domains,
       ai_positions AS aiPositions, ai_urls AS aiUrls, ai_titles AS aiTitles, ai_domains AS aiDomains
FROM check_snapshots
WHERE project_id = {projectId:String} AND keyword_id = {keywordId:String}
  ${windowed ? "AND checked_at >= {since:DateTime64(3, 'UTC')}" : ''} AND checked_at <= {at:DateTime64(3, 'UTC')}
  AND (check_id = {checkId:String} OR (status = 'success' AND (checked_at < {at:DateTime64(3, 'UTC')} OR check_id < {checkId:String})))
ORDER BY checked_at DESC, check_id DESC, version DESC
LIMIT 1 BY check_id
LIMIT 2
SETTINGS allow_experimental_analyzer = 0`;
const WINDOWED_SQL = snapshotSql(true);
const WHOLE_HISTORY_SQL = snapshotSql(false);

/** Reads one check's result page and the one before it, in one statement (rarely two: see PREVIOUS_CHECK_WINDOW_DAYS). */
@Injectable()
export class PositionHistoryReader {
  constructor(@Inject(READ_STORE) private readonly store: ReadStore) {}

  /** This reader for one caller: its reads are not started once the caller has gone (`signal`). */
  forCaller(signal: AbortSignal): PositionHistoryReader {
    return new PositionHistoryReader(readingFor(this.store, signal));
  }

  async locate(checkId: string): Promise<CheckLocation | undefined> {
    const [row] = await this.store.query<{ projectId: string; keywordId: string; checkedAtMs: string }>(
      `SELECT project_id AS projectId, keyword_id AS keywordId, toString(toUnixTimestamp64Milli(checked_at)) AS checkedAtMs
       FROM checks_by_id WHERE check_id = {checkId:String} LIMIT 1`,
      { checkId },
    );
    return row && { projectId: row.projectId, keywordId: row.keywordId, checkedAt: millisOf(row) };
  }

  async snapshot(checkId: string, at: CheckLocation): Promise<CheckSnapshot | undefined> {
    const recent = await this.read(checkId, at, new Date(at.checkedAt.getTime() - PREVIOUS_CHECK_WINDOW_DAYS * DAY_MS));
    if (recent === undefined || recent.outcome.status !== 'success' || recent.previousResults !== null) return recent;
    return this.read(checkId, at, undefined);
  }

  /** `since` undefined: the keyword's whole history. */
  private async read(checkId: string, at: CheckLocation, since: Date | undefined): Promise<CheckSnapshot | undefined> {
    const rows = await this.store.query<SnapshotRow>(since ? WINDOWED_SQL : WHOLE_HISTORY_SQL, {
      projectId: at.projectId,
      keywordId: at.keywordId,
      at: at.checkedAt,
      checkId,
      ...(since && { since }),
    });
    const own = rows.find((row) => row.checkId === checkId);
    if (!own) return undefined;
    const outcome: CheckOutcome = {
      status: own.status,
      position: Number(own.position),
      failureReason: own.failureReason,
      source: own.source,
    };
    if (outcome.status !== 'success') return { outcome, results: [], aiOverview: [], previousResults: null };
    const previous = rows.find((row) => row.checkId !== checkId);
    return {
      outcome,
      results: itemsOf(own.positions, own.urls, own.titles, own.domains),
      aiOverview: itemsOf(own.aiPositions, own.aiUrls, own.aiTitles, own.aiDomains),
      previousResults: previous ? itemsOf(previous.positions, previous.urls, previous.titles, previous.domains) : null,
    };
  }
}

/** A list stored as parallel arrays, as items in position order. */
function itemsOf(positions: number[], urls: string[], titles: string[], domains: string[]): SerpItem[] {
  return positions
    .map((position, i) => ({ position: Number(position), title: titles[i]!, domain: domains[i]!, url: urls[i]! }))
    .sort((x, y) => x.position - y.position);
}
