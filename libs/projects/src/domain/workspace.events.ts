import { eventTypes } from '@rank/domain/domain-event';
import { STREAM_CATEGORIES } from '@rank/domain/stream-categories';
import type { ProjectSettings } from './project-settings';

/**
 * An account's workspace: its folders and its projects' settings, in one stream
 * (`workspace-<accountId>`), so that folder names stay unique and deleting a folder unassigns its
 * projects in one atomic step. Events carry whole records (a rename carries the folder's position,
 * an update the project's creation time) so that read models can be written from one event alone.
 */
export type WorkspaceEvent =
  | { type: 'FolderCreated'; data: { folderId: string; name: string; position: number; createdAt: string } }
  | { type: 'FolderRenamed'; data: { folderId: string; name: string; position: number; renamedAt: string } }
  | { type: 'FolderDeleted'; data: { folderId: string; unassignedProjectIds: string[]; deletedAt: string } }
  /** Also the signal for the background work a new project starts (suggestions, traffic, page speed, competitors). */
  | {
      type: 'ProjectCreated';
      data: { projectId: string; accountId: string; settings: ProjectSettings; folder: string | null; createdAt: string };
    }
  | {
      type: 'ProjectUpdated';
      data: {
        projectId: string;
        settings: ProjectSettings;
        folder: string | null;
        competitors: string[];
        createdAt: string;
        updatedAt: string;
      };
    }
  | { type: 'ProjectDeleted'; data: { projectId: string; deletedAt: string } };

export const WORKSPACE_EVENT_TYPES = eventTypes<WorkspaceEvent>()([
  'FolderCreated',
  'FolderRenamed',
  'FolderDeleted',
  'ProjectCreated',
  'ProjectUpdated',
  'ProjectDeleted',
]);

export const workspaceStreamName = STREAM_CATEGORIES.workspace;
