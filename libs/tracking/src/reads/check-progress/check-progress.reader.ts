import { Inject, Injectable } from '@nestjs/common';
import type { ReadStore } from '@rank/read-store/read-store.port';
import { READ_STORE } from '@rank/platform/tokens';
import { utcDay } from '@rank/domain/calendar-date';
import type { CheckRetryEvent } from '../../domain/check.events';

/** A project's last check day: the checks asked for that UTC day, by where they stand. */
export interface CheckDay {
  /** `YYYY-MM-DD` (UTC) */
  date: string;
  /** Completed: a result was stored. */
  checked: number;
  /** Failed: no result, for good (every source and, for a scheduled check, every try of the day). */
  failed: number;
  /** Waiting for a scraper, or for a retry later in the day. */
  pending: number;
}

interface CheckDayRow {
  date: string;
  checked: string;
  failed: string;
  pending: string;
}

const toCheckDay = (row: CheckDayRow): CheckDay => ({
  date: row.date,
  checked: Number(row.checked),
  failed: Number(row.failed),
  pending: Number(row.pending),
});

/**
 * Reads `check_progress`, where one check's rows (its queueing, its retries, its result) are folded
 * here: its state is the latest row's, its day the earliest row's, the rest from the queue's rows.
 */
@Injectable()
export class CheckProgressReader {
  constructor(@Inject(READ_STORE) private readonly store: ReadStore) {}

  /**
   * The UTC day of the project's latest check request, with its checks counted; null before its first check.
   *
   * Read from the partitions since the first day of the previous month first (two of them, not the
   * project's whole history), which is exact when the latest day found there is after that first day
   * and each of its checks has its queue row there: a check's queue rows (queued, retries) carry the
   * day it was asked for, and its result row the day it ended, never before. Otherwise (no check in
   * those months, a check known only by its result, a check asked before the window) the whole history.
   */
  async lastCheckDay(projectId: string, now: Date): Promise<CheckDay | null> {
    const since = utcDay(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1)));
    const [recent] = await this.store.query<CheckDayRow & { unsure: string }>(
      `SELECT toString(first_day) AS date, toString(countIf(last_state = 'completed')) AS checked,
              toString(countIf(last_state = 'failed')) AS failed, toString(countIf(last_state IN ('queued', 'retry_waiting'))) AS pending,
              toString(countIf(queue_rows = 0)) AS unsure
       FROM (
         SELECT check_id, min(day) AS first_day, argMax(state, version) AS last_state,
                countIf(state IN ('queued', 'retry_waiting')) AS queue_rows
         FROM check_progress
         WHERE project_id = {projectId:String} AND day >= {since:Date}
         GROUP BY check_id
       )
       GROUP BY first_day
       ORDER BY first_day DESC
       LIMIT 1`,
      { projectId, since },
    );
    if (recent && recent.unsure === '0' && recent.date > since) return toCheckDay(recent);
    const [row] = await this.store.query<CheckDayRow>(
      `SELECT toString(day) AS date, toString(countIf(state = 'completed')) AS checked, toString(countIf(state = 'failed')) AS failed,
              toString(countIf(state IN ('queued', 'retry_waiting'))) AS pending
       FROM (
         SELECT check_id, min(day) AS day, argMax(state, version) AS state
         FROM check_progress
         WHERE project_id = {projectId:String}
         GROUP BY check_id
       )
       GROUP BY day
       ORDER BY day DESC
       LIMIT 1`,
      { projectId },
    );
    return row ? toCheckDay(row) : null;
  }

  /**
   * Retries whose time has come (`retryAt` ≤ now) and that nothing has followed yet, oldest first.
   * Only checks asked for since `since` are looked at: a retry never outlives its day.
   */
  async dueRetries(now: Date, since: Date, limit: number): Promise<CheckRetryEvent['data'][]> {
    const rows = await this.store.query<{
      projectId: string;
      checkId: string;
      batchId: string;
      keywordId: string;
      accountId: string;
      credits: string;
      requestedAtMs: string;
      attempt: string;
      retryAtMs: string;
      reason: string;
    }>(
      `SELECT project_id AS projectId, check_id AS checkId, any(batch_id) AS batchId, any(keyword_id) AS keywordId,
              max(account_id) AS accountId, toString(max(credits_per_check)) AS credits,
              toString(toUnixTimestamp64Milli(max(requested_at))) AS requestedAtMs,
              toString(argMax(attempt, version)) AS attempt, toString(toUnixTimestamp64Milli(argMax(retry_at, version))) AS retryAtMs,
              argMax(reason, version) AS reason
       FROM check_progress
       WHERE day >= {since:Date}
       GROUP BY project_id, check_id
       HAVING argMax(state, version) = 'retry_waiting' AND argMax(retry_at, version) <= {now:DateTime64(3, 'UTC')}
       ORDER BY argMax(retry_at, version), check_id
       LIMIT {limit:UInt32}`,
      { since: since.toISOString().slice(0, 10), now, limit },
    );
    return rows.map((row) => ({
      checkId: row.checkId,
      batchId: row.batchId,
      projectId: row.projectId,
      accountId: row.accountId,
      keywordId: row.keywordId,
      creditsPerCheck: Number(row.credits),
      requestedAt: new Date(Number(row.requestedAtMs)).toISOString(),
      // The row of a waiting retry holds the try to come; the event holds the one that failed.
      attempt: Number(row.attempt) - 1,
      retryAt: new Date(Number(row.retryAtMs)).toISOString(),
      reason: row.reason,
    }));
  }
}
