import { PROJECT_CONTENT_EVENT_TYPES, ProjectContentEvent } from './domain/project-content.events';
import { WORKSPACE_EVENT_TYPES, WorkspaceEvent } from './domain/workspace.events';
import { assertNever } from '@rank/domain/domain-error';
import { parseEvent } from '@rank/domain/domain-event';
import { streamIdIn } from '@rank/domain/stream-categories';
import type { RecordedEvent } from '@rank/event-store/event-store.port';
import { Projection, ReadModelChange } from '@rank/read-store/projection';

/** Tables that hold a project's rows, all emptied of them when the project is deleted. */
export const RECORD_TABLES_BY_PROJECT = ['projects', 'project_folders', 'keywords', 'notes'] as const;

function workspaceChanges(accountId: string, e: WorkspaceEvent, version: number): ReadModelChange[] {
  switch (e.type) {
    case 'FolderCreated':
    case 'FolderRenamed':
      return [
        {
          kind: 'insert',
          table: 'folders',
          row: { folder_id: e.data.folderId, account_id: accountId, name: e.data.name, position: e.data.position, version, is_deleted: 0 },
        },
      ];
    case 'FolderDeleted':
      return [
        {
          kind: 'insert',
          table: 'folders',
          row: { folder_id: e.data.folderId, account_id: accountId, name: '', position: 0, version, is_deleted: 1 },
        },
        ...e.data.unassignedProjectIds.map((projectId) => ({
          kind: 'insert' as const,
          table: 'project_folders',
          row: { project_id: projectId, account_id: accountId, folder_id: null, version },
        })),
      ];
    case 'ProjectCreated':
    case 'ProjectUpdated': {
      const s = e.data.settings;
      return [
        {
          kind: 'insert',
          table: 'projects',
          row: {
            project_id: e.data.projectId,
            account_id: accountId,
            name: s.name,
            domain: s.domain,
            aliases: s.aliases,
            competitors: e.type === 'ProjectUpdated' ? e.data.competitors : [],
            shared: s.shared ? 1 : 0,
            update_frequency: s.updateFrequency,
            custom_update_days: s.customUpdateDays,
            update_time: s.updateTime,
            update_timezone: s.updateTimezone,
            serp_top: s.serpTop,
            created_at: Date.parse(e.data.createdAt),
            version,
            is_deleted: 0,
          },
        },
        {
          kind: 'insert',
          table: 'project_folders',
          row: { project_id: e.data.projectId, account_id: accountId, folder_id: e.data.folder, version },
        },
      ];
    }
    case 'ProjectDeleted':
      return RECORD_TABLES_BY_PROJECT.map((table) => ({ kind: 'delete' as const, table, column: 'project_id', value: e.data.projectId }));
    default:
      return assertNever(e);
  }
}

function projectChanges(projectId: string, e: ProjectContentEvent, version: number): ReadModelChange[] {
  switch (e.type) {
    case 'ProjectOwnerRecorded':
      return [];
    case 'KeywordsAdded': {
      // Parsed once for the event's keywords, not once per keyword.
      const addedAt = Date.parse(e.data.addedAt);
      return e.data.keywords.map((k) => ({
        kind: 'insert' as const,
        table: 'keywords',
        row: {
          project_id: projectId,
          keyword_id: k.keywordId,
          value: k.value,
          geo_code: k.geoCode,
          lang_code: k.langCode,
          added_at: addedAt,
          version,
          is_deleted: 0,
        },
      }));
    }
    case 'KeywordsRemoved':
      return e.data.keywordIds.map((keywordId) => ({
        kind: 'insert' as const,
        table: 'keywords',
        row: { project_id: projectId, keyword_id: keywordId, value: '', geo_code: '', lang_code: '', added_at: 0, version, is_deleted: 1 },
      }));
    case 'NoteSaved':
    case 'NoteUpdated':
      return [
        {
          kind: 'insert',
          table: 'notes',
          row: {
            project_id: projectId,
            note_id: e.data.noteId,
            date: e.data.date,
            text: e.data.text,
            color: e.data.color,
            version,
            is_deleted: 0,
          },
        },
      ];
    case 'NoteDeleted':
      return [
        {
          kind: 'insert',
          table: 'notes',
          row: { project_id: projectId, note_id: e.data.noteId, date: '1970-01-01', text: '', color: 'info', version, is_deleted: 1 },
        },
      ];
    default:
      return assertNever(e);
  }
}

/** Projects, folders, keywords and notes, from the workspace and project streams. */
export const recordsProjection: Projection = {
  name: 'records',
  tables: ['projects', 'project_folders', 'folders', 'keywords', 'notes'],
  eventTypes: [...WORKSPACE_EVENT_TYPES, ...PROJECT_CONTENT_EVENT_TYPES],
  project(event: RecordedEvent): ReadModelChange[] {
    // The type first, then only its stream's name: a replay reads the one it needs, not both.
    const workspaceEvent = parseEvent<WorkspaceEvent>(event, WORKSPACE_EVENT_TYPES);
    if (workspaceEvent) {
      // Its stream's id is the account (`workspace-<accountId>`), which the events do not repeat.
      const accountId = streamIdIn('workspace', event.streamName);
      return accountId === undefined ? [] : workspaceChanges(accountId, workspaceEvent, event.position);
    }
    const projectEvent = parseEvent<ProjectContentEvent>(event, PROJECT_CONTENT_EVENT_TYPES);
    if (!projectEvent) return [];
    const projectId = streamIdIn('project', event.streamName);
    return projectId === undefined ? [] : projectChanges(projectId, projectEvent, event.position);
  },
};
