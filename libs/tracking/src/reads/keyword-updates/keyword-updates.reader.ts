import { Inject, Injectable } from '@nestjs/common';
import type { ReadStore } from '@rank/read-store/read-store.port';
import { READ_STORE } from '@rank/platform/tokens';
import type { DayWindow } from '../shared/day-window';
import type { CheckRow } from '../shared/keyword-update.view';

export const AGGREGATIONS = ['daily', 'weekly', 'monthly'] as const;
export type Aggregation = (typeof AGGREGATIONS)[number];

/** The period each aggregation reduces to; UTC days, ISO weeks (Monday start), calendar months. */
const PERIOD_OF: Record<Aggregation, string> = {
  daily: 'toDate(checked_at)',
  weekly: 'toMonday(checked_at)',
  monthly: 'toStartOfMonth(checked_at)',
};

/**
 * One check per keyword and period, reduced inside ClickHouse so that only the chosen checks travel
 * to Node. `argMax` over the key (succeeded?, checked_at, check_id) picks the period's latest
 * successful check, else (daily only; weekly and monthly read successes only) its latest failed one.
 * A row stored twice (a replayed event) is an identical tuple, so argMax dedups without FINAL.
 */
@Injectable()
export class KeywordUpdatesReader {
  constructor(@Inject(READ_STORE) private readonly store: ReadStore) {}

  /**
   * `keywordIds` narrows the scan when a filter chose some keywords; undefined reads the whole
   * project (the caller drops keywords that are no longer tracked). Rows come oldest first per keyword.
   */
  async run(projectId: string, window: DayWindow, aggregation: Aggregation, keywordIds?: readonly string[]): Promise<CheckRow[]> {
    const sql = `
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
          ${keywordIds ? 'AND keyword_id IN {keywordIds:Array(String)}' : ''}
        GROUP BY keyword_id, ${PERIOD_OF[aggregation]}
      )
      ORDER BY keywordId, pick.2, checkId`;
    const params = { projectId, from: window.from, to: window.to, ...(keywordIds ? { keywordIds } : {}) };
    return this.store.query<CheckRow>(sql, params);
  }
}
