import { Inject, Injectable } from '@nestjs/common';
import { readingFor, type ReadStore } from '@rank/read-store/read-store.port';
import { READ_STORE } from '@rank/platform/tokens';
import type { DayWindow } from '../shared/day-window';
import type { CheckRow } from '../shared/keyword-update.view';

/** A competitor is looked for in the top 30 of each check (spec: position 0 = outside the top 30). */
export const COMPETITOR_DEPTH = 30;

/**
 * One check per keyword and UTC day (the day's latest successful check, else its latest failed one),
 * with the competitor's best result in that check's top 30 joined on. Both sides are reduced in
 * ClickHouse: the right side keeps only the competitor's rows (a handful per check), so the join is
 * small whatever the project's size. A check without the competitor joins to the default row, position
 * 0 and empty strings (join_use_nulls = 0, pinned below), which is exactly "absent from the top 30".
 */
@Injectable()
export class CompetitorPositionsReader {
  constructor(@Inject(READ_STORE) private readonly store: ReadStore) {}

  /** This reader for one caller: its reads are not started once the caller has gone (`signal`). */
  forCaller(signal: AbortSignal): CompetitorPositionsReader {
    return new CompetitorPositionsReader(readingFor(this.store, signal));
  }

  /** `competitor` is a normalised domain; its subdomains count as the competitor. Rows oldest first per keyword. */
  async run(projectId: string, competitor: string, window: DayWindow): Promise<CheckRow[]> {
    return this.store.query<CheckRow>(
      `SELECT day.keywordId AS keywordId, day.checkId AS checkId, day.checkedAtMs AS checkedAtMs, day.status AS status,
              best.bestPosition AS position, best.bestUrl AS url, best.bestTitle AS title, best.bestDomain AS domain, day.hasAiOverview AS hasAiOverview
       FROM (
         SELECT keyword_id AS keywordId, pick.1 AS checkId, pick.2 AS checkedAt,
                toString(toUnixTimestamp64Milli(pick.2)) AS checkedAtMs, pick.3 AS status, pick.4 AS hasAiOverview
         FROM (
           SELECT keyword_id,
                  argMax(tuple(check_id, checked_at, status, has_ai_overview), tuple(status = 'success', checked_at, check_id)) AS pick
           FROM keyword_updates
           WHERE project_id = {projectId:String}
             AND checked_at >= {from:DateTime64(3, 'UTC')} AND checked_at < {to:DateTime64(3, 'UTC')}
           GROUP BY keyword_id, toDate(checked_at)
         )
       ) AS day
       LEFT JOIN (
         -- Aliases differ from the columns: WHERE would otherwise read the aggregates.
         SELECT check_id, min(position) AS bestPosition,
                argMin(url, position) AS bestUrl, argMin(title, position) AS bestTitle, argMin(domain, position) AS bestDomain
         FROM serp_results
         WHERE project_id = {projectId:String}
           AND checked_at >= {from:DateTime64(3, 'UTC')} AND checked_at < {to:DateTime64(3, 'UTC')}
           AND position <= {depth:UInt16}
           AND (domain = {competitor:String} OR endsWith(domain, {dotCompetitor:String}))
         GROUP BY check_id
       ) AS best ON best.check_id = day.checkId
       ORDER BY keywordId, day.checkedAt, checkId
       SETTINGS join_use_nulls = 0`,
      { projectId, from: window.from, to: window.to, depth: COMPETITOR_DEPTH, competitor, dotCompetitor: `.${competitor}` },
    );
  }
}
