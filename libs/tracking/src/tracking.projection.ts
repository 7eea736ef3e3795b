import { CHECK_EVENT_TYPES, CheckEvent } from './domain/check.events';
import { assertNever } from '@rank/domain/domain-error';
import { parseEvent } from '@rank/domain/domain-event';
import type { WorkspaceEvent } from '@rank/projects/domain/workspace.events';
import type { RecordedEvent } from '@rank/event-store/event-store.port';
import { Projection, ReadModelChange } from '@rank/read-store/projection';

export const TRACKING_TABLES = ['keyword_updates', 'checks_by_id', 'serp_results', 'ai_overview_sources'] as const;

/** Keyword updates, result lists and AI Overview sources from the checks streams. */
export const trackingProjection: Projection = {
  name: 'tracking',
  tables: TRACKING_TABLES,
  project(event: RecordedEvent): ReadModelChange[] {
    const deleted = parseEvent<Extract<WorkspaceEvent, { type: 'ProjectDeleted' }>>(event, ['ProjectDeleted']);
    if (deleted) {
      return TRACKING_TABLES.map((table) => ({ kind: 'delete' as const, table, column: 'project_id', value: deleted.data.projectId }));
    }
    const e = parseEvent<CheckEvent>(event, CHECK_EVENT_TYPES);
    if (!e) return [];
    const version = event.position;
    switch (e.type) {
      case 'CheckCompleted': {
        const { checkId, projectId, keywordId } = e.data;
        const checkedAt = Date.parse(e.data.completedAt);
        const key = { project_id: projectId, keyword_id: keywordId, check_id: checkId, checked_at: checkedAt };
        return [
          {
            kind: 'insert', table: 'keyword_updates', row: {
              ...key, status: 'success', position: e.data.position.position, url: e.data.position.url, title: e.data.position.title,
              domain: e.data.position.domain, has_ai_overview: e.data.aiOverview.length > 0 ? 1 : 0, failure_reason: '', version,
            },
          },
          { kind: 'insert', table: 'checks_by_id', row: { check_id: checkId, project_id: projectId, keyword_id: keywordId, checked_at: checkedAt, version } },
          ...e.data.results.map((r) => ({ kind: 'insert' as const, table: 'serp_results', row: { ...key, ...r, version } })),
          ...e.data.aiOverview.map((r) => ({ kind: 'insert' as const, table: 'ai_overview_sources', row: { ...key, ...r, version } })),
        ];
      }
      case 'CheckFailed': {
        const { checkId, projectId, keywordId } = e.data;
        const checkedAt = Date.parse(e.data.failedAt);
        return [
          {
            kind: 'insert', table: 'keyword_updates', row: {
              project_id: projectId, keyword_id: keywordId, check_id: checkId, checked_at: checkedAt, status: 'failed',
              position: 0, url: '', title: '', domain: '', has_ai_overview: 0, failure_reason: e.data.reason, version,
            },
          },
          { kind: 'insert', table: 'checks_by_id', row: { check_id: checkId, project_id: projectId, keyword_id: keywordId, checked_at: checkedAt, version } },
        ];
      }
      default:
        return assertNever(e);
    }
  },
};
