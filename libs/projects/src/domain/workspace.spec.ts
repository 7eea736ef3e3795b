import { deciderSpec } from '@rank/domain/testing/decider-spec';
import { DEFAULT_SETTINGS, ProjectSettings } from './project-settings';
import { FOLDER_NAME_TAKEN, workspaceDecider } from './workspace';
import { WorkspaceEvent } from './workspace.events';
import { foldEvents } from '@rank/domain/decider';

const now = new Date('2026-03-01T10:00:00.000Z');
const at = now.toISOString();
const spec = deciderSpec(workspaceDecider, now);
const settings: ProjectSettings = { ...DEFAULT_SETTINGS, name: 'Shop', domain: 'shop.example' };
const id = (n: number) => String(n).padStart(24, '0');
const folderCreated = (n: number, name: string, position = n - 1): WorkspaceEvent => ({
  type: 'FolderCreated',
  data: { folderId: id(n), name, position, createdAt: at },
});
const projectCreated = (n: number, folder: string | null = null): WorkspaceEvent => ({
  type: 'ProjectCreated',
  data: { projectId: id(100 + n), accountId: id(999), settings, folder, createdAt: at },
});

describe('Workspace: folders', () => {
  it('creates folders at the next position', () => {
    spec
      .given([folderCreated(1, 'Clients')])
      .when({ type: 'CreateFolder', folderId: id(2), name: 'Internal' })
      .then([folderCreated(2, 'Internal', 1)]);
  });
  it('refuses a name that differs only in case, on create and on rename', () => {
    spec
      .given([folderCreated(1, 'Clients')])
      .when({ type: 'CreateFolder', folderId: id(2), name: 'CLIENTS' })
      .thenThrows('conflict', FOLDER_NAME_TAKEN);
    spec
      .given([folderCreated(1, 'Clients'), folderCreated(2, 'Other')])
      .when({ type: 'RenameFolder', folderId: id(2), name: 'clients' })
      .thenThrows('conflict', FOLDER_NAME_TAKEN);
  });
  it('lets a folder be renamed to another case of its own name', () => {
    spec
      .given([folderCreated(1, 'Clients')])
      .when({ type: 'RenameFolder', folderId: id(1), name: 'CLIENTS' })
      .then([{ type: 'FolderRenamed', data: { folderId: id(1), name: 'CLIENTS', position: 0, renamedAt: at } }]);
  });
  it('deletes a folder and unassigns its projects, which remain', () => {
    const past = [folderCreated(1, 'Clients'), projectCreated(1, id(1)), projectCreated(2), projectCreated(3, id(1))];
    const events = spec
      .given(past)
      .when({ type: 'DeleteFolder', folderId: id(1) })
      .events();
    expect(events).toEqual([{ type: 'FolderDeleted', data: { folderId: id(1), unassignedProjectIds: [id(101), id(103)], deletedAt: at } }]);
    const state = foldEvents(workspaceDecider, [...past, ...events]);
    expect(state.folders).toEqual([]);
    expect(state.projects.map((p) => [p.projectId, p.folder])).toEqual([
      [id(101), null],
      [id(102), null],
      [id(103), null],
    ]);
  });
  it('says not found for an unknown folder', () => {
    spec
      .given([])
      .when({ type: 'DeleteFolder', folderId: id(1) })
      .thenThrows('not-found', 'Folder not found');
    spec
      .given([])
      .when({ type: 'RenameFolder', folderId: id(1), name: 'x' })
      .thenThrows('not-found');
  });
});

describe('Workspace: projects', () => {
  it('creates a project, in a folder that exists', () => {
    spec
      .given([folderCreated(1, 'Clients')])
      .when({ type: 'CreateProject', projectId: id(101), accountId: id(999), settings, folder: id(1) })
      .then([projectCreated(1, id(1))]);
    spec
      .given([])
      .when({ type: 'CreateProject', projectId: id(101), accountId: id(999), settings, folder: id(1) })
      .thenThrows('not-found', 'Folder not found');
  });
  it('updates settings, keeps the folder and competitors when not given, and takes it out of its folder on null', () => {
    const past = [folderCreated(1, 'Clients'), projectCreated(1, id(1))];
    const renamed = { ...settings, name: 'Shop 2' };
    spec
      .given(past)
      .when({ type: 'UpdateProject', projectId: id(101), settings: renamed, folder: undefined, competitors: undefined })
      .then([
        {
          type: 'ProjectUpdated',
          data: { projectId: id(101), settings: renamed, folder: id(1), competitors: [], createdAt: at, updatedAt: at },
        },
      ]);
    spec
      .given(past)
      .when({ type: 'UpdateProject', projectId: id(101), settings, folder: null, competitors: ['rival.example'] })
      .then([
        {
          type: 'ProjectUpdated',
          data: { projectId: id(101), settings, folder: null, competitors: ['rival.example'], createdAt: at, updatedAt: at },
        },
      ]);
  });
  it('drops the new domain from the aliases and competitors it keeps, when an update changes the domain alone', () => {
    // Given a project that lists rival.example as a competitor and as an alias
    const listed: WorkspaceEvent = {
      type: 'ProjectUpdated',
      data: {
        projectId: id(101),
        settings: { ...settings, aliases: ['rival.example', 'shop-old.example'] },
        folder: null,
        competitors: ['rival.example', 'other.example'],
        createdAt: at,
        updatedAt: at,
      },
    };
    // When an update moves the project to rival.example, sending neither list
    // then the project is neither its own alias nor its own competitor
    spec
      .given([projectCreated(1), listed])
      .when({
        type: 'UpdateProject',
        projectId: id(101),
        settings: { name: 'Shop', domain: 'rival.example' },
        folder: undefined,
        competitors: undefined,
      })
      .then([
        {
          type: 'ProjectUpdated',
          data: {
            projectId: id(101),
            settings: { ...settings, domain: 'rival.example', aliases: ['shop-old.example'] },
            folder: null,
            competitors: ['other.example'],
            createdAt: at,
            updatedAt: at,
          },
        },
      ]);
  });
  it('applies an update to the project as it is when decided: a field it does not send keeps a change made meanwhile', () => {
    // Given an update that shared the project (made on another replica after this one read it)
    const shared: WorkspaceEvent = {
      type: 'ProjectUpdated',
      data: { projectId: id(101), settings: { ...settings, shared: true }, folder: null, competitors: [], createdAt: at, updatedAt: at },
    };
    // when an update that sends only the depth is decided, then the project stays shared
    spec
      .given([projectCreated(1), shared])
      .when({
        type: 'UpdateProject',
        projectId: id(101),
        settings: { name: 'Shop', domain: 'shop.example', serpTop: 100 },
        folder: undefined,
        competitors: undefined,
      })
      .then([
        {
          type: 'ProjectUpdated',
          data: {
            projectId: id(101),
            settings: { ...settings, shared: true, serpTop: 100 },
            folder: null,
            competitors: [],
            createdAt: at,
            updatedAt: at,
          },
        },
      ]);
  });
  it('needs the days of a custom frequency, sent or kept, and drops them for any other', () => {
    const custom: WorkspaceEvent = {
      type: 'ProjectUpdated',
      data: {
        projectId: id(101),
        settings: { ...settings, updateFrequency: 'custom', customUpdateDays: [1, 3] },
        folder: null,
        competitors: [],
        createdAt: at,
        updatedAt: at,
      },
    };
    const change = { name: 'Shop', domain: 'shop.example' };
    spec
      .given([projectCreated(1)])
      .when({
        type: 'UpdateProject',
        projectId: id(101),
        settings: { ...change, updateFrequency: 'custom' },
        folder: undefined,
        competitors: undefined,
      })
      .thenThrows('invalid', 'customUpdateDays is required when updateFrequency is custom: weekday numbers 0-6 (0 = Sunday)');
    spec
      .given([projectCreated(1), custom])
      .when({
        type: 'UpdateProject',
        projectId: id(101),
        settings: { ...change, updateTime: 7 },
        folder: undefined,
        competitors: undefined,
      })
      .then([{ ...custom, data: { ...custom.data, settings: { ...custom.data.settings, updateTime: 7 } } }]);
    spec
      .given([projectCreated(1), custom])
      .when({
        type: 'UpdateProject',
        projectId: id(101),
        settings: { ...change, updateFrequency: 'weekly' },
        folder: undefined,
        competitors: undefined,
      })
      .then([{ ...custom, data: { ...custom.data, settings: { ...settings, updateFrequency: 'weekly', customUpdateDays: [] } } }]);
  });
  it('deletes a project; a deleted project is not found any more', () => {
    const deleted: WorkspaceEvent = { type: 'ProjectDeleted', data: { projectId: id(101), deletedAt: at } };
    spec
      .given([projectCreated(1)])
      .when({ type: 'DeleteProject', projectId: id(101) })
      .then([deleted]);
    spec
      .given([projectCreated(1), deleted])
      .when({ type: 'UpdateProject', projectId: id(101), settings, folder: undefined, competitors: undefined })
      .thenThrows('not-found', 'Project not found');
  });
});
