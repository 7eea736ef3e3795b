import { Inject, Injectable } from '@nestjs/common';
import type { ReadStore } from '@rank/read-store/read-store.port';
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

/** One row of the snapshot query: a check (`a` status, `b` failure reason, `c` source) or a result (`a` url, `b` title, `c` domain). */
interface SnapshotRow {
  kind: 'check' | 'result' | 'ai';
  checkId: string;
  position: number;
  a: string;
  b: string;
  c: string;
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
 * One statement for a check and the one before it: the keyword's checks in the window picked first
 * (a scalar subquery: this check, and the latest success strictly before it in (checked_at, check_id)
 * order), then the result lists of those one or two checks and this check's AI Overview sources.
 * Each chDB statement costs some milliseconds of planning however little it reads, so four statements
 * took 30-40 ms where this one takes about half. Every read stays inside the keyword's slice of the
 * (project_id, keyword_id, checked_at) sort key and the window's partitions. A replayed check is a
 * second row until ClickHouse merges it: LIMIT 1 BY and GROUP BY fold those, the newest version winning.
 * The result lists come straight from serp_checks, a check's newest row unfolded by ARRAY JOIN, not
 * through the serp_results view grouped again by result: a fifth less time for the snapshot (30-54 ms
 * → 25-38 ms on the bench's seeded year, the same answers for 40 checks).
 */
const snapshotSql = (windowed: boolean) => `
WITH (
  SELECT groupArray(tuple(check_id, checked_at, status, position, failure_reason, source))
  FROM (
    SELECT check_id, checked_at, status, position, failure_reason, source
    FROM keyword_updates
    WHERE project_id = {projectId:String} AND keyword_id = {keywordId:String}
      ${windowed ? "AND checked_at >= {since:DateTime64(3, 'UTC')}" : ''} AND checked_at <= {at:DateTime64(3, 'UTC')}
      AND (check_id = {checkId:String} OR (status = 'success' AND (checked_at < {at:DateTime64(3, 'UTC')} OR check_id < {checkId:String})))
    ORDER BY checked_at DESC, check_id DESC, version DESC
    LIMIT 1 BY check_id
    LIMIT 2
  )
) AS picked
SELECT 'check' AS kind, pick.1 AS checkId, pick.4 AS position, toString(pick.3) AS a, pick.5 AS b, toString(pick.6) AS c
FROM (SELECT arrayJoin(picked) AS pick)
UNION ALL
SELECT 'result', check_id, position, url, title, domain
FROM (
  SELECT check_id, positions, urls, titles, domains
  FROM serp_checks
  WHERE project_id = {projectId:String} AND keyword_id = {keywordId:String}
    ${windowed ? "AND checked_at >= {since:DateTime64(3, 'UTC')}" : ''} AND checked_at <= {at:DateTime64(3, 'UTC')}
    AND check_id IN arrayMap(p -> p.1, picked)
  ORDER BY version DESC
  LIMIT 1 BY check_id
)
ARRAY JOIN positions AS position, urls AS url, titles AS title, domains AS domain
UNION ALL
SELECT 'ai', check_id, position, argMax(url, version), argMax(title, version), argMax(domain, version)
FROM ai_overview_sources
WHERE project_id = {projectId:String} AND keyword_id = {keywordId:String}
  AND checked_at = {at:DateTime64(3, 'UTC')} AND check_id = {checkId:String}
GROUP BY check_id, position`;
const WINDOWED_SQL = snapshotSql(true);
const WHOLE_HISTORY_SQL = snapshotSql(false);

/** Reads one check's result page and the one before it, in one statement (rarely two: see PREVIOUS_CHECK_WINDOW_DAYS). */
@Injectable()
export class PositionHistoryReader {
  constructor(@Inject(READ_STORE) private readonly store: ReadStore) {}

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
    const checks = rows.filter((row) => row.kind === 'check');
    const own = checks.find((row) => row.checkId === checkId);
    if (!own) return undefined;
    const outcome: CheckOutcome = { status: own.a, position: Number(own.position), failureReason: own.b, source: own.c };
    if (outcome.status !== 'success') return { outcome, results: [], aiOverview: [], previousResults: null };
    const previous = checks.find((row) => row.checkId !== checkId);
    const listOf = (kind: SnapshotRow['kind'], id: string): SerpItem[] =>
      rows
        .filter((row) => row.kind === kind && row.checkId === id)
        .map((row) => ({ position: Number(row.position), title: row.b, domain: row.c, url: row.a }))
        .sort((x, y) => x.position - y.position);
    return {
      outcome,
      results: listOf('result', checkId),
      aiOverview: listOf('ai', checkId),
      previousResults: previous ? listOf('result', previous.checkId) : null,
    };
  }
}
