import { Inject, Injectable } from '@nestjs/common';
import type { ReadStore } from '@rank/read-store/read-store.port';
import { READ_STORE } from '@rank/platform/tokens';
import type { DayWindow } from '../shared/day-window';

export const AGGREGATIONS = ['daily', 'weekly', 'monthly'] as const;
export type Aggregation = (typeof AGGREGATIONS)[number];

/** The period each aggregation reduces to; UTC days, ISO weeks (Monday start), calendar months. */
const PERIOD_OF: Record<Aggregation, string> = {
  daily: 'toDate(checked_at)',
  weekly: 'toMonday(checked_at)',
  monthly: 'toStartOfMonth(checked_at)',
};

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
 * One check per keyword and period, reduced inside ClickHouse so that only the chosen checks travel
 * to Node. `argMax` over the key (succeeded?, checked_at, check_id) picks the period's latest
 * successful check, else (daily only; weekly and monthly read successes only) its latest failed one.
 * A row stored twice (a replayed event) is an identical tuple, so argMax dedups without FINAL.
 *
 * Ids first, wide columns after: the picks carry a 64-bit key of (url, title, domain) instead of the
 * strings, as one row per keyword, and the distinct pages of the window come in a second query. A
 * keyword ranks with the same few pages all year, so this moves a fraction of the bytes (measured on
 * the bench project, 30 days: 31.8 MB of JSONEachRow before) and lets the answer's writer render each
 * page once.
 */
@Injectable()
export class KeywordUpdatesReader {
  constructor(@Inject(READ_STORE) private readonly store: ReadStore) {}

  /**
   * `keywordIds` narrows the scan when a filter chose some keywords; undefined reads the whole
   * project (the caller drops keywords that are no longer tracked).
   */
  async run(projectId: string, window: DayWindow, aggregation: Aggregation, keywordIds?: readonly string[]): Promise<KeywordUpdateRows> {
    const scope = `project_id = {projectId:String}
          AND checked_at >= {from:DateTime64(3, 'UTC')} AND checked_at < {to:DateTime64(3, 'UTC')}
          ${aggregation === 'daily' ? '' : "AND status = 'success'"}
          ${keywordIds ? 'AND keyword_id IN {keywordIds:Array(String)}' : ''}`;
    const params = { projectId, from: window.from, to: window.to, ...(keywordIds ? { keywordIds } : {}) };
    const [picks, pages] = await Promise.all([
      // arraySort of (checked_at ms, check_id, ...) tuples: oldest first, ties by check id, whatever
      // order the aggregation met the rows in.
      this.store.query<{ keywordId: string; picks: PickTuple[] }>(
        `SELECT keyword_id AS keywordId,
                arraySort(groupArray((toUnixTimestamp64Milli(pick.1), pick.2, pick.3 = 'success', pick.4, pick.5, pick.6))) AS picks
         FROM (
           SELECT keyword_id,
                  argMax(tuple(checked_at, check_id, status, position, cityHash64(url, title, domain), has_ai_overview),
                         tuple(status = 'success', checked_at, check_id)) AS pick
           FROM keyword_updates
           WHERE ${scope}
           GROUP BY keyword_id, ${PERIOD_OF[aggregation]}
         )
         GROUP BY keyword_id`,
        params,
      ),
      // Aliases unlike the columns: ClickHouse would read url in the key as the alias any(url).
      this.store.query<{ pageKey: string; pageUrl: string; pageTitle: string; pageDomain: string }>(
        `SELECT toString(cityHash64(url, title, domain)) AS pageKey, any(url) AS pageUrl, any(title) AS pageTitle, any(domain) AS pageDomain
         FROM keyword_updates
         WHERE ${scope} AND status = 'success'
         GROUP BY pageKey`,
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
    return { byKeyword, pages: new Map(pages.map((p) => [p.pageKey, { url: p.pageUrl, title: p.pageTitle, domain: p.pageDomain }])) };
  }
}
