import { assertNever, conflict, DomainError, notFound } from '@rank/domain/domain-error';
import { Decider } from '@rank/domain/decider';
import { applySettingsChange, type ProjectSettings, type SettingsChange } from './project-settings';
import { WORKSPACE_EVENT_TYPES, WorkspaceEvent } from './workspace.events';

export interface Folder {
  folderId: string;
  name: string;
  position: number;
}

export interface ProjectRecord {
  projectId: string;
  settings: ProjectSettings;
  folder: string | null;
  competitors: string[];
  createdAt: string;
  /** The time zone the project was created in: periodic schedules count from its creation day there. */
  creationZone: string;
}

export interface WorkspaceState {
  /** In creation order. */
  folders: Folder[];
  /** In creation order; deleted projects are gone. */
  projects: ProjectRecord[];
}

export type WorkspaceCommand =
  | { type: 'CreateFolder'; folderId: string; name: string }
  | { type: 'RenameFolder'; folderId: string; name: string }
  | { type: 'DeleteFolder'; folderId: string }
  | { type: 'CreateProject'; projectId: string; accountId: string; settings: ProjectSettings; folder: string | null }
  /** `folder` undefined keeps the project's folder; null takes it out of its folder. */
  | {
      type: 'UpdateProject';
      projectId: string;
      /** Applied to the project's settings as they are when the update is decided. */
      settings: SettingsChange;
      folder: string | null | undefined;
      competitors: string[] | undefined;
    }
  | { type: 'DeleteProject'; projectId: string };

export const FOLDER_NAME_TAKEN = 'Folder with this name already exists';

/** Folder names are compared case-insensitively, and composed: names stored before input was composed (NFC) still meet. */
const sameName = (a: string, b: string) => a.normalize('NFC').toLocaleLowerCase('en') === b.normalize('NFC').toLocaleLowerCase('en');

function requireFolder(state: WorkspaceState, folderId: string): Folder {
  const folder = state.folders.find((f) => f.folderId === folderId);
  if (!folder) throw notFound('Folder not found');
  return folder;
}

export function findProject(state: WorkspaceState, projectId: string): ProjectRecord | undefined {
  return state.projects.find((p) => p.projectId === projectId);
}

function requireProject(state: WorkspaceState, projectId: string): ProjectRecord {
  const project = findProject(state, projectId);
  if (!project) throw notFound('Project not found');
  return project;
}

export function decideWorkspace(command: WorkspaceCommand, state: WorkspaceState, now: Date): WorkspaceEvent[] {
  const at = now.toISOString();
  switch (command.type) {
    case 'CreateFolder': {
      if (state.folders.some((f) => sameName(f.name, command.name))) throw conflict(FOLDER_NAME_TAKEN);
      const position = state.folders.reduce((max, f) => Math.max(max, f.position + 1), 0);
      return [{ type: 'FolderCreated', data: { folderId: command.folderId, name: command.name, position, createdAt: at } }];
    }
    case 'RenameFolder': {
      const folder = requireFolder(state, command.folderId);
      if (state.folders.some((f) => f.folderId !== folder.folderId && sameName(f.name, command.name))) throw conflict(FOLDER_NAME_TAKEN);
      if (folder.name === command.name) return [];
      return [{ type: 'FolderRenamed', data: { folderId: folder.folderId, name: command.name, position: folder.position, renamedAt: at } }];
    }
    case 'DeleteFolder': {
      const folder = requireFolder(state, command.folderId);
      const unassignedProjectIds = state.projects.filter((p) => p.folder === folder.folderId).map((p) => p.projectId);
      return [{ type: 'FolderDeleted', data: { folderId: folder.folderId, unassignedProjectIds, deletedAt: at } }];
    }
    case 'CreateProject': {
      if (findProject(state, command.projectId)) throw new DomainError('conflict', 'Project already exists');
      if (command.folder !== null) requireFolder(state, command.folder);
      const { projectId, accountId, settings, folder } = command;
      return [{ type: 'ProjectCreated', data: { projectId, accountId, settings, folder, createdAt: at } }];
    }
    case 'UpdateProject': {
      const project = requireProject(state, command.projectId);
      const folder = command.folder === undefined ? project.folder : command.folder;
      if (folder !== null && folder !== project.folder) requireFolder(state, folder);
      const settings = applySettingsChange(command.settings, project.settings);
      // Kept competitors are judged against a changed domain too: a project never competes with itself.
      const competitors = (command.competitors ?? project.competitors).filter((competitor) => competitor !== settings.domain);
      return [
        {
          type: 'ProjectUpdated',
          data: {
            projectId: project.projectId,
            settings,
            folder,
            competitors,
            createdAt: project.createdAt,
            updatedAt: at,
          },
        },
      ];
    }
    case 'DeleteProject': {
      const project = requireProject(state, command.projectId);
      return [{ type: 'ProjectDeleted', data: { projectId: project.projectId, deletedAt: at } }];
    }
    default:
      return assertNever(command);
  }
}

export function evolveWorkspace(state: WorkspaceState, event: WorkspaceEvent): WorkspaceState {
  switch (event.type) {
    case 'FolderCreated': {
      const { folderId, name, position } = event.data;
      return { ...state, folders: [...state.folders, { folderId, name, position }] };
    }
    case 'FolderRenamed':
      return { ...state, folders: state.folders.map((f) => (f.folderId === event.data.folderId ? { ...f, name: event.data.name } : f)) };
    case 'FolderDeleted':
      return {
        folders: state.folders.filter((f) => f.folderId !== event.data.folderId),
        projects: state.projects.map((p) => (p.folder === event.data.folderId ? { ...p, folder: null } : p)),
      };
    case 'ProjectCreated': {
      const { projectId, settings, folder, createdAt } = event.data;
      return {
        ...state,
        projects: [...state.projects, { projectId, settings, folder, competitors: [], createdAt, creationZone: settings.updateTimezone }],
      };
    }
    case 'ProjectUpdated': {
      const { projectId, settings, folder, competitors } = event.data;
      return { ...state, projects: state.projects.map((p) => (p.projectId === projectId ? { ...p, settings, folder, competitors } : p)) };
    }
    case 'ProjectDeleted':
      return { ...state, projects: state.projects.filter((p) => p.projectId !== event.data.projectId) };
    default:
      return assertNever(event);
  }
}

export const workspaceDecider: Decider<WorkspaceCommand, WorkspaceEvent, WorkspaceState> = {
  decide: decideWorkspace,
  evolve: evolveWorkspace,
  initialState: () => ({ folders: [], projects: [] }),
  eventTypes: WORKSPACE_EVENT_TYPES,
};
