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

interface ResultRow extends SerpItem {
  checkId: string;
}

const millisOf = (row: { checkedAtMs: string }) => new Date(Number(row.checkedAtMs));

/**
 * Reads one check's result page and the one before it. Every read is narrowed to the keyword's slice of
 * the (project_id, keyword_id, checked_at) sort key, so its cost does not grow with the project.
 * Rows stored twice (replayed events) are folded by GROUP BY on their key, newest version winning.
 */
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
    const key = { projectId: at.projectId, keywordId: at.keywordId, at: at.checkedAt, checkId };
    const [outcome] = await this.store.query<CheckOutcome>(
      `SELECT status, position, failure_reason AS failureReason, source
       FROM keyword_updates
       WHERE project_id = {projectId:String} AND keyword_id = {keywordId:String}
         AND checked_at = {at:DateTime64(3, 'UTC')} AND check_id = {checkId:String}
       ORDER BY version DESC LIMIT 1`,
      key,
    );
    if (!outcome) return undefined;
    if (outcome.status !== 'success') return { outcome, results: [], aiOverview: [], previousResults: null };

    // The previous successful check: the latest one strictly before this one in (checked_at, check_id) order.
    const [previous] = await this.store.query<{ checkId: string; checkedAtMs: string }>(
      `SELECT check_id AS checkId, toString(toUnixTimestamp64Milli(checked_at)) AS checkedAtMs
       FROM keyword_updates
       WHERE project_id = {projectId:String} AND keyword_id = {keywordId:String} AND status = 'success'
         AND checked_at <= {at:DateTime64(3, 'UTC')}
         AND (checked_at < {at:DateTime64(3, 'UTC')} OR check_id < {checkId:String})
       ORDER BY checked_at DESC, check_id DESC LIMIT 1`,
      key,
    );
    const [results, aiOverview] = await Promise.all([
      this.resultsOf('serp_results', key, previous ? [checkId, previous.checkId] : [checkId], previous ? millisOf(previous) : at.checkedAt),
      this.resultsOf('ai_overview_sources', key, [checkId], at.checkedAt),
    ]);
    const item = ({ position, title, domain, url }: ResultRow): SerpItem => ({ position, title, domain, url });
    return {
      outcome,
      results: results.filter((r) => r.checkId === checkId).map(item),
      aiOverview: aiOverview.map(item),
      previousResults: previous ? results.filter((r) => r.checkId === previous.checkId).map(item) : null,
    };
  }

  /** The results of some checks of one keyword, all between `since` and `key.at`, best position first. */
  private resultsOf(
    table: 'serp_results' | 'ai_overview_sources',
    key: { projectId: string; keywordId: string; at: Date },
    checkIds: string[],
    since: Date,
  ) {
    return this.store.query<ResultRow>(
      `SELECT check_id AS checkId, position,
              argMax(url, version) AS url, argMax(title, version) AS title, argMax(domain, version) AS domain
       FROM ${table}
       WHERE project_id = {projectId:String} AND keyword_id = {keywordId:String}
         AND checked_at >= {since:DateTime64(3, 'UTC')} AND checked_at <= {at:DateTime64(3, 'UTC')}
         AND check_id IN {checkIds:Array(String)}
       GROUP BY check_id, position
       ORDER BY position`,
      { projectId: key.projectId, keywordId: key.keywordId, at: key.at, since, checkIds },
    );
  }
}
