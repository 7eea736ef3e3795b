import { AccountEvent, accountStreamName } from '@rank/accounts/domain/account.events';
import { EventInStream, projectionSpec } from '@rank/read-store/testing/projection-spec';
import { CheckEvent, checksStreamName } from '@rank/tracking/domain/check.events';
import { ScheduleStreamEvent, scheduleStreamName } from '@rank/tracking/domain/scheduled-checks';
import { ProjectContentEvent, projectStreamName } from './domain/project-content.events';
import { DEFAULT_SETTINGS, ProjectSettings } from './domain/project-settings';
import { WorkspaceEvent, workspaceStreamName } from './domain/workspace.events';
import { RECORD_TABLES_BY_PROJECT, recordsProjection } from './records.projection';

const spec = projectionSpec(recordsProjection);

const accountId = '65f1a2b3c4d5e6f708192a3b';
const projectId = '65f1a2b3c4d5e6f708192a41';
const secondProjectId = '65f1a2b3c4d5e6f708192a42';
const folderId = '65f1a2b3c4d5e6f708192a50';
const [shovelsId, rakesId] = ['65f1a2b3c4d5e6f708192b01', '65f1a2b3c4d5e6f708192b02'];
const noteId = '65f1a2b3c4d5e6f708192c01';
const createdAt = '2026-03-01T09:30:00.000Z';
const createdAtMs = Date.UTC(2026, 2, 1, 9, 30);

const inWorkspace = (event: WorkspaceEvent, position?: number): EventInStream => ({
  streamName: workspaceStreamName(accountId),
  ...event,
  position,
});
const inProject = (event: ProjectContentEvent, position?: number): EventInStream => ({
  streamName: projectStreamName(projectId),
  ...event,
  position,
});

const settings: ProjectSettings = {
  ...DEFAULT_SETTINGS,
  name: 'Garden shop',
  domain: 'garden-shop.example',
  aliases: ['gardenshop.example'],
};

/** The `projects` row of `settings` as first written; each case overrides what its event changes. */
const projectRow = {
  project_id: projectId,
  account_id: accountId,
  name: 'Garden shop',
  domain: 'garden-shop.example',
  aliases: ['gardenshop.example'],
  competitors: [],
  shared: 0,
  update_frequency: 'daily',
  custom_update_days: [],
  update_time: 12,
  update_timezone: 'UTC',
  serp_top: 50,
  created_at: createdAtMs,
  is_deleted: 0,
};

describe('records projection: folders (workspace stream)', () => {
  it('writes a created folder with its name and position', () => {
    spec.given([inWorkspace({ type: 'FolderCreated', data: { folderId, name: 'Clients', position: 2, createdAt } }, 17)]).then([
      {
        kind: 'insert',
        table: 'folders',
        row: { folder_id: folderId, account_id: accountId, name: 'Clients', position: 2, version: 17, is_deleted: 0 },
      },
    ]);
  });

  it('writes a renamed folder whole again, at the later version, so that the rename replaces the first row', () => {
    spec
      .given([
        inWorkspace({ type: 'FolderCreated', data: { folderId, name: 'Clients', position: 0, createdAt } }, 17),
        inWorkspace(
          { type: 'FolderRenamed', data: { folderId, name: 'Customers', position: 0, renamedAt: '2026-03-02T08:00:00.000Z' } },
          23,
        ),
      ])
      .then([
        {
          kind: 'insert',
          table: 'folders',
          row: { folder_id: folderId, account_id: accountId, name: 'Clients', position: 0, version: 17, is_deleted: 0 },
        },
        {
          kind: 'insert',
          table: 'folders',
          row: { folder_id: folderId, account_id: accountId, name: 'Customers', position: 0, version: 23, is_deleted: 0 },
        },
      ]);
  });

  it('marks a deleted folder deleted and takes each of its projects out of it', () => {
    spec
      .given([
        inWorkspace(
          {
            type: 'FolderDeleted',
            data: { folderId, unassignedProjectIds: [projectId, secondProjectId], deletedAt: '2026-03-03T08:00:00.000Z' },
          },
          31,
        ),
      ])
      .then([
        {
          kind: 'insert',
          table: 'folders',
          row: { folder_id: folderId, account_id: accountId, name: '', position: 0, version: 31, is_deleted: 1 },
        },
        { kind: 'insert', table: 'project_folders', row: { project_id: projectId, account_id: accountId, folder_id: null, version: 31 } },
        {
          kind: 'insert',
          table: 'project_folders',
          row: { project_id: secondProjectId, account_id: accountId, folder_id: null, version: 31 },
        },
      ]);
  });

  it('marks an empty folder deleted and touches no project', () => {
    spec
      .given([
        inWorkspace({ type: 'FolderDeleted', data: { folderId, unassignedProjectIds: [], deletedAt: '2026-03-03T08:00:00.000Z' } }, 31),
      ])
      .then([
        {
          kind: 'insert',
          table: 'folders',
          row: { folder_id: folderId, account_id: accountId, name: '', position: 0, version: 31, is_deleted: 1 },
        },
      ]);
  });
});

describe('records projection: projects (workspace stream)', () => {
  it('writes a created project with its settings, no competitors yet, and its folder', () => {
    spec.given([inWorkspace({ type: 'ProjectCreated', data: { projectId, accountId, settings, folder: folderId, createdAt } }, 40)]).then([
      { kind: 'insert', table: 'projects', row: { ...projectRow, version: 40 } },
      { kind: 'insert', table: 'project_folders', row: { project_id: projectId, account_id: accountId, folder_id: folderId, version: 40 } },
    ]);
  });

  it('writes a project created outside any folder with a null folder', () => {
    spec.given([inWorkspace({ type: 'ProjectCreated', data: { projectId, accountId, settings, folder: null, createdAt } }, 40)]).then([
      { kind: 'insert', table: 'projects', row: { ...projectRow, version: 40 } },
      { kind: 'insert', table: 'project_folders', row: { project_id: projectId, account_id: accountId, folder_id: null, version: 40 } },
    ]);
  });

  it('writes an updated project whole: new settings, its competitors, the creation time it carries, and its folder', () => {
    const updated: ProjectSettings = {
      ...settings,
      name: 'Garden & patio shop',
      shared: true,
      updateFrequency: 'custom',
      customUpdateDays: [1, 4],
      updateTime: 6,
      updateTimezone: 'Europe/Berlin',
      serpTop: 100,
    };
    spec
      .given([
        inWorkspace(
          {
            type: 'ProjectUpdated',
            data: {
              projectId,
              settings: updated,
              folder: null,
              competitors: ['rival-garden.example', 'patio-world.example'],
              createdAt,
              updatedAt: '2026-03-04T12:00:00.000Z',
            },
          },
          52,
        ),
      ])
      .then([
        {
          kind: 'insert',
          table: 'projects',
          row: {
            ...projectRow,
            name: 'Garden & patio shop',
            competitors: ['rival-garden.example', 'patio-world.example'],
            shared: 1,
            update_frequency: 'custom',
            custom_update_days: [1, 4],
            update_time: 6,
            update_timezone: 'Europe/Berlin',
            serp_top: 100,
            version: 52,
          },
        },
        { kind: 'insert', table: 'project_folders', row: { project_id: projectId, account_id: accountId, folder_id: null, version: 52 } },
      ]);
  });

  it('erases a deleted project from every per-project table', () => {
    spec.given([inWorkspace({ type: 'ProjectDeleted', data: { projectId, deletedAt: '2026-03-05T12:00:00.000Z' } }, 60)]).then([
      { kind: 'delete', table: 'projects', column: 'project_id', value: projectId },
      { kind: 'delete', table: 'project_folders', column: 'project_id', value: projectId },
      { kind: 'delete', table: 'keywords', column: 'project_id', value: projectId },
      { kind: 'delete', table: 'notes', column: 'project_id', value: projectId },
    ]);
    // Folders belong to the account and outlive its projects; every other table is erased.
    expect(recordsProjection.tables.filter((table) => !(RECORD_TABLES_BY_PROJECT as readonly string[]).includes(table))).toEqual([
      'folders',
    ]);
  });
});

describe('records projection: keywords and notes (project stream)', () => {
  it('writes nothing for the owner record, which only routes public reads', () => {
    spec.given([inProject({ type: 'ProjectOwnerRecorded', data: { projectId, accountId } }, 41)]).thenNothing();
  });

  it('writes one row per added keyword, all at the event version', () => {
    spec
      .given([
        inProject(
          {
            type: 'KeywordsAdded',
            data: {
              keywords: [
                { keywordId: shovelsId, value: 'garden shovels', geoCode: 'DE', langCode: 'de' },
                { keywordId: rakesId, value: 'leaf rakes', geoCode: 'US', langCode: 'en' },
              ],
              addedAt: '2026-03-01T10:00:00.000Z',
            },
          },
          44,
        ),
      ])
      .then([
        {
          kind: 'insert',
          table: 'keywords',
          row: {
            project_id: projectId,
            keyword_id: shovelsId,
            value: 'garden shovels',
            geo_code: 'DE',
            lang_code: 'de',
            added_at: Date.UTC(2026, 2, 1, 10),
            version: 44,
            is_deleted: 0,
          },
        },
        {
          kind: 'insert',
          table: 'keywords',
          row: {
            project_id: projectId,
            keyword_id: rakesId,
            value: 'leaf rakes',
            geo_code: 'US',
            lang_code: 'en',
            added_at: Date.UTC(2026, 2, 1, 10),
            version: 44,
            is_deleted: 0,
          },
        },
      ]);
  });

  it('marks removed keywords deleted', () => {
    spec
      .given([
        inProject({ type: 'KeywordsRemoved', data: { keywordIds: [shovelsId, rakesId], removedAt: '2026-03-06T10:00:00.000Z' } }, 70),
      ])
      .then([
        {
          kind: 'insert',
          table: 'keywords',
          row: {
            project_id: projectId,
            keyword_id: shovelsId,
            value: '',
            geo_code: '',
            lang_code: '',
            added_at: 0,
            version: 70,
            is_deleted: 1,
          },
        },
        {
          kind: 'insert',
          table: 'keywords',
          row: {
            project_id: projectId,
            keyword_id: rakesId,
            value: '',
            geo_code: '',
            lang_code: '',
            added_at: 0,
            version: 70,
            is_deleted: 1,
          },
        },
      ]);
  });

  it('writes a saved note, then the updated note whole at the later version', () => {
    spec
      .given([
        inProject(
          {
            type: 'NoteSaved',
            data: { noteId, date: '2026-03-01', text: 'Moved to the new shop system', color: 'info', savedAt: '2026-03-01T11:00:00.000Z' },
          },
          45,
        ),
        inProject(
          {
            type: 'NoteUpdated',
            data: {
              noteId,
              date: '2026-02-28',
              text: 'Moved to the new shop system\nold URLs redirected',
              color: 'warning',
              updatedAt: '2026-03-02T11:00:00.000Z',
            },
          },
          48,
        ),
      ])
      .then([
        {
          kind: 'insert',
          table: 'notes',
          row: {
            project_id: projectId,
            note_id: noteId,
            date: '2026-03-01',
            text: 'Moved to the new shop system',
            color: 'info',
            version: 45,
            is_deleted: 0,
          },
        },
        {
          kind: 'insert',
          table: 'notes',
          row: {
            project_id: projectId,
            note_id: noteId,
            date: '2026-02-28',
            text: 'Moved to the new shop system\nold URLs redirected',
            color: 'warning',
            version: 48,
            is_deleted: 0,
          },
        },
      ]);
  });

  it('marks a deleted note deleted', () => {
    spec.given([inProject({ type: 'NoteDeleted', data: { noteId, deletedAt: '2026-03-07T11:00:00.000Z' } }, 75)]).then([
      {
        kind: 'insert',
        table: 'notes',
        row: { project_id: projectId, note_id: noteId, date: '1970-01-01', text: '', color: 'info', version: 75, is_deleted: 1 },
      },
    ]);
  });
});

describe('records projection: the log as a whole', () => {
  it('versions every row by its event position in the log, whatever the stream revision', () => {
    const changes = spec
      .given([
        inWorkspace({ type: 'ProjectCreated', data: { projectId, accountId, settings, folder: null, createdAt } }, 1_000),
        inProject({ type: 'ProjectOwnerRecorded', data: { projectId, accountId } }),
        inProject({ type: 'NoteSaved', data: { noteId, date: '2026-03-01', text: 'Launch', color: 'success', savedAt: createdAt } }),
        inWorkspace({ type: 'FolderCreated', data: { folderId, name: 'Clients', position: 0, createdAt } }, 5_000_000),
      ])
      .changes();
    expect(changes.map((c) => (c.kind === 'insert' ? [c.table, c.row.version] : c))).toEqual([
      ['projects', 1_000],
      ['project_folders', 1_000],
      ['notes', 1_002],
      ['folders', 5_000_000],
    ]);
  });

  it('ignores the events of streams it does not read: accounts, schedules, check results', () => {
    const account: AccountEvent = {
      type: 'AccountOpened',
      data: { accountId, name: 'Garden shop GmbH', plan: 'pro', isTrial: false, virtualBalance: 500, openedAt: createdAt },
    };
    const scheduled: ScheduleStreamEvent = {
      type: 'ScheduledCheckRequested',
      data: {
        projectId,
        accountId,
        slotKey: '2026-03-02',
        batchId: '65f1a2b3c4d5e6f708192d01',
        dueAt: '2026-03-02T12:00:00.000Z',
        requestedAt: '2026-03-02T12:00:03.000Z',
      },
    };
    const failed: CheckEvent = {
      type: 'CheckFailed',
      data: {
        checkId: '65f2c1a0a1b2c3d4e5f60718',
        batchId: '65f1a2b3c4d5e6f708192d01',
        projectId,
        keywordId: shovelsId,
        failedAt: '2026-03-02T12:04:00.000Z',
        reason: 'Timeout after 3 attempts',
        accountId,
        refundCredits: 0,
      },
    };
    spec
      .given([
        { streamName: accountStreamName(accountId), ...account },
        { streamName: scheduleStreamName(projectId), ...scheduled },
        { streamName: checksStreamName(projectId, shovelsId), ...failed },
      ])
      .thenNothing();
  });
});
