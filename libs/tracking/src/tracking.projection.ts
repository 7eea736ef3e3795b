import {
  CHECK_EVENT_TYPES,
  CHECK_RETRY_EVENT_TYPES,
  CHECK_WORK_EVENT_TYPES,
  CheckEvent,
  CheckRetryEvent,
  CheckWorkEvent,
  RankedResult,
} from './domain/check.events';
import { assertNever } from '@rank/domain/domain-error';
import { parseEvent } from '@rank/domain/domain-event';
import type { WorkspaceEvent } from '@rank/projects/domain/workspace.events';
import type { RecordedEvent } from '@rank/event-store/event-store.port';
import { Projection, ReadModelChange } from '@rank/read-store/projection';

/**
 * The tables this projection writes. A check's result page (its outcome, organic results and AI Overview
 * sources) is one check_snapshots row; `serp_results` and `ai_overview_sources` are views of it (migration 014).
 */
export const TRACKING_TABLES = ['keyword_updates', 'checks_by_id', 'check_snapshots', 'check_progress'] as const;

/**
 * Filled by materialized views on keyword_updates (migrations 011 and 013), never written here: listed so that
 * a deleted project's rows go from them too and a rebuild empties them before the views refill them.
 */
export const TRACKING_DERIVED_TABLES = ['keyword_day_checks', 'keyword_day_picks', 'keyword_week_picks', 'ranking_pages'] as const;

/** A check's place in `check_progress`: what a queued check and its result both say of it. */
type ProgressRow = Record<string, string | number>;

/** The row of a check waiting for a scraper, or for its retry. */
function queuedProgress(
  check: CheckWorkEvent['data'],
  state: 'queued' | 'retry_waiting',
  attempt: number,
  version: number,
  retry?: { at: string; reason: string },
): ProgressRow {
  const requestedAt = Date.parse(check.requestedAt);
  // Keys spelled out, not spread from a shared key object: a replay builds one of these per check.
  return {
    project_id: check.projectId,
    check_id: check.checkId,
    batch_id: check.batchId,
    keyword_id: check.keywordId,
    account_id: check.accountId,
    credits_per_check: check.creditsPerCheck,
    requested_at: requestedAt,
    day: new Date(requestedAt).toISOString().slice(0, 10),
    state,
    attempt,
    retry_at: retry ? Date.parse(retry.at) : 0,
    reason: retry?.reason ?? '',
    version,
  };
}

/**
 * A result says only how the check ended: its row leaves what the queue said empty, and readers fold
 * a check's rows (its latest state by version, the rest from the queue's rows; its day the earliest).
 * Its `day` is the day it ended, so that a reader that looks at recent days sees it.
 */
function resultProgress(
  check: { projectId: string; checkId: string; batchId: string; keywordId: string },
  state: 'completed' | 'failed',
  endedAt: string,
  version: number,
): ProgressRow {
  return {
    project_id: check.projectId,
    check_id: check.checkId,
    batch_id: check.batchId,
    keyword_id: check.keywordId,
    account_id: '',
    credits_per_check: 0,
    requested_at: 0,
    day: endedAt.slice(0, 10),
    state,
    attempt: 0,
    retry_at: 0,
    reason: '',
    version,
  };
}

/** How a check ended: columns of both its keyword_updates row and its check_snapshots row. */
interface OutcomeColumns {
  status: 'success' | 'failed';
  position: number;
  failure_reason: string;
  source: string;
}

/**
 * A check's check_snapshots row: its key and outcome once, its organic results and its AI Overview's
 * cited sources as parallel arrays, the i-th entry of each the i-th result (fields beyond those the
 * table has were never written).
 */
function snapshotRow(
  key: { project_id: string; keyword_id: string; check_id: string; checked_at: number },
  outcome: OutcomeColumns,
  results: readonly RankedResult[],
  cited: readonly RankedResult[],
  version: number,
) {
  const organic = columnsOf(results);
  const ai = columnsOf(cited);
  return {
    project_id: key.project_id,
    keyword_id: key.keyword_id,
    check_id: key.check_id,
    checked_at: key.checked_at,
    status: outcome.status,
    position: outcome.position,
    failure_reason: outcome.failure_reason,
    source: outcome.source,
    positions: organic.positions,
    urls: organic.urls,
    titles: organic.titles,
    domains: organic.domains,
    ai_positions: ai.positions,
    ai_urls: ai.urls,
    ai_titles: ai.titles,
    ai_domains: ai.domains,
    version,
  };
}

/**
 * Results as parallel arrays, built with plain loops: a replay builds two sets per check. Pushed, not
 * pre-sized: the insert's JSON.stringify has a fast path only for packed arrays.
 */
function columnsOf(results: readonly RankedResult[]) {
  const positions: number[] = [];
  const urls: string[] = [];
  const titles: string[] = [];
  const domains: string[] = [];
  for (const r of results) {
    positions.push(r.position);
    urls.push(r.url);
    titles.push(r.title);
    domains.push(r.domain);
  }
  return { positions, urls, titles, domains };
}

const NO_RESULTS: readonly RankedResult[] = [];

/** Results stored before SERP sources existed were loaded by the browser. */
const DEFAULT_SOURCE = 'browser';

/** Keyword updates and check snapshots from the checks streams; where each check stands from its work order's stream. */
export const trackingProjection: Projection = {
  name: 'tracking',
  tables: [...TRACKING_TABLES, ...TRACKING_DERIVED_TABLES],
  eventTypes: [
    'ProjectDeleted' satisfies WorkspaceEvent['type'],
    ...CHECK_WORK_EVENT_TYPES,
    ...CHECK_RETRY_EVENT_TYPES,
    ...CHECK_EVENT_TYPES,
  ],
  // A check_snapshots row is a check's whole result page (about 50 results): 2,000 of them are the
  // 100,000 results a batch of the earlier row per result held. Written in batches that size, a
  // replay's result pages go to ClickHouse while the next checks are projected, not all at the end.
  batchRows: { check_snapshots: 2_000 },
  project(event: RecordedEvent): ReadModelChange[] {
    const deleted = parseEvent<Extract<WorkspaceEvent, { type: 'ProjectDeleted' }>>(event, ['ProjectDeleted']);
    if (deleted) {
      return [...TRACKING_TABLES, ...TRACKING_DERIVED_TABLES].map((table) => ({
        kind: 'delete' as const,
        table,
        column: 'project_id',
        value: deleted.data.projectId,
      }));
    }
    const version = event.position;
    const queued = parseEvent<CheckWorkEvent>(event, CHECK_WORK_EVENT_TYPES);
    if (queued)
      return [{ kind: 'insert', table: 'check_progress', row: queuedProgress(queued.data, 'queued', queued.data.attempt ?? 1, version) }];
    const retry = parseEvent<CheckRetryEvent>(event, CHECK_RETRY_EVENT_TYPES);
    if (retry) {
      const { attempt, retryAt, reason } = retry.data;
      return [
        {
          kind: 'insert',
          table: 'check_progress',
          row: queuedProgress(retry.data, 'retry_waiting', attempt + 1, version, { at: retryAt, reason }),
        },
      ];
    }
    const e = parseEvent<CheckEvent>(event, CHECK_EVENT_TYPES);
    if (!e) return [];
    switch (e.type) {
      case 'CheckCompleted': {
        const { checkId, projectId, keywordId } = e.data;
        const checkedAt = Date.parse(e.data.completedAt);
        const key = { project_id: projectId, keyword_id: keywordId, check_id: checkId, checked_at: checkedAt };
        // How the check ended, once for both tables that hold it.
        const outcome: OutcomeColumns = {
          status: 'success',
          position: e.data.position.position,
          failure_reason: '',
          source: e.data.source ?? DEFAULT_SOURCE,
        };
        return [
          {
            kind: 'insert',
            table: 'keyword_updates',
            row: {
              ...key,
              ...outcome,
              url: e.data.position.url,
              title: e.data.position.title,
              domain: e.data.position.domain,
              has_ai_overview: e.data.aiOverview.length > 0 ? 1 : 0,
              version,
            },
          },
          {
            kind: 'insert',
            table: 'checks_by_id',
            row: { check_id: checkId, project_id: projectId, keyword_id: keywordId, checked_at: checkedAt, version },
          },
          { kind: 'insert', table: 'check_progress', row: resultProgress(e.data, 'completed', e.data.completedAt, version) },
          {
            kind: 'insert',
            table: 'check_snapshots',
            row: snapshotRow(key, outcome, e.data.results, e.data.aiOverview, version),
          },
        ];
      }
      case 'CheckFailed': {
        const { checkId, projectId, keywordId } = e.data;
        const checkedAt = Date.parse(e.data.failedAt);
        const key = { project_id: projectId, keyword_id: keywordId, check_id: checkId, checked_at: checkedAt };
        const outcome: OutcomeColumns = { status: 'failed', position: 0, failure_reason: e.data.reason, source: '' };
        return [
          {
            kind: 'insert',
            table: 'keyword_updates',
            row: { ...key, ...outcome, url: '', title: '', domain: '', has_ai_overview: 0, version },
          },
          {
            kind: 'insert',
            table: 'checks_by_id',
            row: { check_id: checkId, project_id: projectId, keyword_id: keywordId, checked_at: checkedAt, version },
          },
          { kind: 'insert', table: 'check_progress', row: resultProgress(e.data, 'failed', e.data.failedAt, version) },
          // A failed check has a row too, with empty lists, so that position-history reads one table.
          {
            kind: 'insert',
            table: 'check_snapshots',
            row: snapshotRow(key, outcome, NO_RESULTS, NO_RESULTS, version),
          },
        ];
      }
      default:
        return assertNever(e);
    }
  },
};
