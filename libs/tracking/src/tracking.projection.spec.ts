import { AccountEvent, accountStreamName } from '@rank/accounts/domain/account.events';
import { ProjectContentEvent, projectStreamName } from '@rank/projects/domain/project-content.events';
import { DEFAULT_SETTINGS } from '@rank/projects/domain/project-settings';
import { WorkspaceEvent, workspaceStreamName } from '@rank/projects/domain/workspace.events';
import { EventInStream, projectionSpec, recordedLog } from '@rank/read-store/testing/projection-spec';
import { CheckEvent, CheckRetryEvent, checksStreamName, CheckWorkEvent, checkWorkStreamName } from './domain/check.events';
import { MonthlyTokensEvent, monthlyTokensStreamName } from './domain/monthly-tokens';
import { ScheduleStreamEvent, scheduleStreamName } from './domain/scheduled-checks';
import { TRACKING_DERIVED_TABLES, TRACKING_TABLES, trackingProjection } from './tracking.projection';

const spec = projectionSpec(trackingProjection);

const accountId = '65f1a2b3c4d5e6f708192a3b';
const projectId = '65f1a2b3c4d5e6f708192a41';
const keywordId = '65f1a2b3c4d5e6f708192b01';
const batchId = '65f1a2b3c4d5e6f708192d01';
const checkId = '65f2c1a0a1b2c3d4e5f60718';
const completedAt = '2026-03-02T12:03:41.250Z';
const completedAtMs = Date.UTC(2026, 2, 2, 12, 3, 41, 250);

const inChecks = (event: CheckEvent, position?: number): EventInStream => ({
  streamName: checksStreamName(projectId, keywordId),
  ...event,
  position,
});

const shopResult = {
  position: 3,
  url: 'https://garden-shop.example/shovels',
  title: 'Garden shovels | Garden shop',
  domain: 'garden-shop.example',
};
const results = [
  { position: 1, url: 'https://rival-garden.example/spades', title: 'Spades and shovels', domain: 'rival-garden.example' },
  { position: 2, url: 'https://en.wikipedia.org/wiki/Shovel', title: 'Shovel - Wikipedia', domain: 'en.wikipedia.org' },
  shopResult,
];
const aiOverview = [
  { position: 1, url: 'https://en.wikipedia.org/wiki/Shovel', title: 'Shovel - Wikipedia', domain: 'en.wikipedia.org' },
  { position: 2, url: 'https://garden-shop.example/guides/choosing-a-shovel', title: 'Choosing a shovel', domain: 'garden-shop.example' },
];

const completed = (data: Partial<Extract<CheckEvent, { type: 'CheckCompleted' }>['data']> = {}): CheckEvent => ({
  type: 'CheckCompleted',
  data: { checkId, batchId, projectId, keywordId, completedAt, serpTop: 50, position: shopResult, results, aiOverview, ...data },
});

/** A result's progress row: how the check ended, the queue's columns left empty. */
const progressOfResult = {
  project_id: projectId,
  check_id: checkId,
  batch_id: batchId,
  keyword_id: keywordId,
  account_id: '',
  credits_per_check: 0,
  requested_at: 0,
  day: '2026-03-02',
  attempt: 0,
  retry_at: 0,
  reason: '',
};

/** The columns every row of one check shares: its key in each table. */
const checkKey = { project_id: projectId, keyword_id: keywordId, check_id: checkId, checked_at: completedAtMs };

describe('tracking projection: check results (checks stream)', () => {
  it('writes a completed check: the keyword update with the source that answered, where the check lives and stands, every organic result and every AI Overview source', () => {
    spec.given([inChecks(completed({ source: 'dataforseo' }), 812)]).then([
      {
        kind: 'insert',
        table: 'keyword_updates',
        row: {
          ...checkKey,
          status: 'success',
          position: 3,
          url: 'https://garden-shop.example/shovels',
          title: 'Garden shovels | Garden shop',
          domain: 'garden-shop.example',
          has_ai_overview: 1,
          failure_reason: '',
          source: 'dataforseo',
          version: 812,
        },
      },
      {
        kind: 'insert',
        table: 'checks_by_id',
        row: { check_id: checkId, project_id: projectId, keyword_id: keywordId, checked_at: completedAtMs, version: 812 },
      },
      { kind: 'insert', table: 'check_progress', row: { ...progressOfResult, state: 'completed', version: 812 } },
      {
        kind: 'insert',
        table: 'check_snapshots',
        row: {
          ...checkKey,
          status: 'success',
          position: 3,
          failure_reason: '',
          source: 'dataforseo',
          positions: [1, 2, 3],
          urls: ['https://rival-garden.example/spades', 'https://en.wikipedia.org/wiki/Shovel', 'https://garden-shop.example/shovels'],
          titles: ['Spades and shovels', 'Shovel - Wikipedia', 'Garden shovels | Garden shop'],
          domains: ['rival-garden.example', 'en.wikipedia.org', 'garden-shop.example'],
          ai_positions: [1, 2],
          ai_urls: ['https://en.wikipedia.org/wiki/Shovel', 'https://garden-shop.example/guides/choosing-a-shovel'],
          ai_titles: ['Shovel - Wikipedia', 'Choosing a shovel'],
          ai_domains: ['en.wikipedia.org', 'garden-shop.example'],
          version: 812,
        },
      },
    ]);
  });

  it('writes a completed check stored before sources existed as loaded by the browser, one without an AI Overview, the project not within the depth, as position 0 and no sources', () => {
    const notRanked = { position: 0, url: '', title: '', domain: '' };
    spec.given([inChecks(completed({ position: notRanked, results: results.slice(0, 1), aiOverview: [] }), 813)]).then([
      {
        kind: 'insert',
        table: 'keyword_updates',
        row: {
          ...checkKey,
          status: 'success',
          position: 0,
          url: '',
          title: '',
          domain: '',
          has_ai_overview: 0,
          failure_reason: '',
          source: 'browser',
          version: 813,
        },
      },
      {
        kind: 'insert',
        table: 'checks_by_id',
        row: { check_id: checkId, project_id: projectId, keyword_id: keywordId, checked_at: completedAtMs, version: 813 },
      },
      { kind: 'insert', table: 'check_progress', row: { ...progressOfResult, state: 'completed', version: 813 } },
      {
        kind: 'insert',
        table: 'check_snapshots',
        row: {
          ...checkKey,
          status: 'success',
          position: 0,
          failure_reason: '',
          source: 'browser',
          positions: [1],
          urls: ['https://rival-garden.example/spades'],
          titles: ['Spades and shovels'],
          domains: ['rival-garden.example'],
          ai_positions: [],
          ai_urls: [],
          ai_titles: [],
          ai_domains: [],
          version: 813,
        },
      },
    ]);
  });

  it('writes a failed check as a failed keyword update with its reason, where it lives, and a snapshot with its reason and empty lists', () => {
    const failedAt = '2026-03-02T12:09:00.000Z';
    spec
      .given([
        inChecks(
          {
            type: 'CheckFailed',
            data: {
              checkId,
              batchId,
              projectId,
              keywordId,
              failedAt,
              reason: 'Google answered with a captcha on every attempt',
              accountId,
              refundCredits: 2,
            },
          },
          820,
        ),
      ])
      .then([
        {
          kind: 'insert',
          table: 'keyword_updates',
          row: {
            project_id: projectId,
            keyword_id: keywordId,
            check_id: checkId,
            checked_at: Date.parse(failedAt),
            status: 'failed',
            position: 0,
            url: '',
            title: '',
            domain: '',
            has_ai_overview: 0,
            failure_reason: 'Google answered with a captcha on every attempt',
            source: '',
            version: 820,
          },
        },
        {
          kind: 'insert',
          table: 'checks_by_id',
          row: { check_id: checkId, project_id: projectId, keyword_id: keywordId, checked_at: Date.parse(failedAt), version: 820 },
        },
        { kind: 'insert', table: 'check_progress', row: { ...progressOfResult, state: 'failed', version: 820 } },
        {
          kind: 'insert',
          table: 'check_snapshots',
          row: {
            ...checkKey,
            checked_at: Date.parse(failedAt),
            status: 'failed',
            position: 0,
            failure_reason: 'Google answered with a captcha on every attempt',
            source: '',
            positions: [],
            urls: [],
            titles: [],
            domains: [],
            ai_positions: [],
            ai_urls: [],
            ai_titles: [],
            ai_domains: [],
            version: 820,
          },
        },
      ]);
  });

  it('writes a snapshot with an empty organic list for a completed check whose page had no organic results', () => {
    const [event] = recordedLog([inChecks(completed({ position: { position: 0, url: '', title: '', domain: '' }, results: [] }), 814)]);
    const changes = trackingProjection.project(event!);
    expect(changes.map((change) => change.table)).toEqual(['keyword_updates', 'checks_by_id', 'check_progress', 'check_snapshots']);
    const snapshot = changes.find((change) => change.table === 'check_snapshots');
    expect(snapshot).toMatchObject({ row: { status: 'success', positions: [], urls: [], titles: [], domains: [], ai_positions: [1, 2] } });
  });

  it('writes the same rows again for the same recorded event, so that a replay changes nothing', () => {
    const [event] = recordedLog([inChecks(completed(), 812)]);
    expect(trackingProjection.project(event!)).toStrictEqual(trackingProjection.project(structuredClone(event!)));
  });
});

describe('tracking projection: deleting a project (workspace stream)', () => {
  it('erases the deleted project from every tracking table', () => {
    spec
      .given([
        {
          streamName: workspaceStreamName(accountId),
          type: 'ProjectDeleted',
          data: { projectId, deletedAt: '2026-03-05T12:00:00.000Z' },
          position: 900,
        },
      ])
      .then([
        { kind: 'delete', table: 'keyword_updates', column: 'project_id', value: projectId },
        { kind: 'delete', table: 'checks_by_id', column: 'project_id', value: projectId },
        { kind: 'delete', table: 'check_snapshots', column: 'project_id', value: projectId },
        { kind: 'delete', table: 'check_progress', column: 'project_id', value: projectId },
        { kind: 'delete', table: 'keyword_day_checks', column: 'project_id', value: projectId },
        { kind: 'delete', table: 'keyword_day_picks', column: 'project_id', value: projectId },
        { kind: 'delete', table: 'keyword_week_picks', column: 'project_id', value: projectId },
        { kind: 'delete', table: 'ranking_pages', column: 'project_id', value: projectId },
      ]);
    expect([...trackingProjection.tables]).toStrictEqual([...TRACKING_TABLES, ...TRACKING_DERIVED_TABLES]);
  });

  it('writes nothing for the other workspace events, nor for a removed keyword, whose check history stays', () => {
    const workspace: WorkspaceEvent[] = [
      { type: 'FolderCreated', data: { folderId: '65f1a2b3c4d5e6f708192a50', name: 'Clients', position: 0, createdAt: completedAt } },
      {
        type: 'ProjectCreated',
        data: {
          projectId,
          accountId,
          settings: { ...DEFAULT_SETTINGS, name: 'Garden shop', domain: 'garden-shop.example' },
          folder: null,
          createdAt: completedAt,
        },
      },
      { type: 'FolderDeleted', data: { folderId: '65f1a2b3c4d5e6f708192a50', unassignedProjectIds: [projectId], deletedAt: completedAt } },
    ];
    const removed: ProjectContentEvent = { type: 'KeywordsRemoved', data: { keywordIds: [keywordId], removedAt: completedAt } };
    spec
      .given([
        ...workspace.map((event) => ({ streamName: workspaceStreamName(accountId), ...event })),
        { streamName: projectStreamName(projectId), ...removed },
      ])
      .thenNothing();
  });
});

describe('tracking projection: streams it does not read', () => {
  it("ignores work orders, token draws and the account's charges and refunds", () => {
    const scheduled: ScheduleStreamEvent = {
      type: 'ScheduledCheckRequested',
      data: {
        projectId,
        accountId,
        slotKey: '2026-03-02',
        batchId,
        dueAt: '2026-03-02T12:00:00.000Z',
        requestedAt: '2026-03-02T12:00:03.000Z',
      },
    };
    const drawn: MonthlyTokensEvent = {
      type: 'MonthlyTokensDrawn',
      data: {
        accountId,
        month: '2026-03',
        projectId,
        slotKey: '2026-03-02',
        amount: 1,
        total: 150_000,
        drawnAt: '2026-03-02T12:00:02.000Z',
      },
    };
    const charged: AccountEvent = {
      type: 'ScrapeRequested',
      data: {
        batchId,
        projectId,
        keywordIds: [keywordId],
        serpTop: 100,
        creditsPerCheck: 2,
        credits: 2,
        requestedAt: '2026-03-02T12:00:03.000Z',
      },
    };
    const refunded: AccountEvent = {
      type: 'ScrapeCreditRefunded',
      data: { batchId, checkId, credits: 2, refundedAt: '2026-03-02T12:09:01.000Z' },
    };
    spec
      .given([
        { streamName: scheduleStreamName(projectId), ...scheduled },
        { streamName: monthlyTokensStreamName(accountId, '2026-03'), ...drawn },
        { streamName: accountStreamName(accountId), ...charged },
        { streamName: accountStreamName(accountId), ...refunded },
      ])
      .thenNothing();
  });
});

describe('tracking projection: where each check stands (work order streams)', () => {
  const requestedAt = '2026-03-02T12:00:03.000Z';
  const queuedData = { checkId, batchId, projectId, accountId, keywordId, creditsPerCheck: 0, requestedAt };
  const queuedRow = {
    project_id: projectId,
    check_id: checkId,
    batch_id: batchId,
    keyword_id: keywordId,
    account_id: accountId,
    credits_per_check: 0,
    requested_at: Date.parse(requestedAt),
    day: '2026-03-02',
    retry_at: 0,
    reason: '',
  };

  it('writes a queued check, its retry waiting with when and why, and the retry queued as its next try', () => {
    const retryAt = '2026-03-02T12:30:05.000Z';
    const queued: CheckWorkEvent = { type: 'CheckQueued', data: queuedData };
    const retry: CheckRetryEvent = {
      type: 'CheckRetryScheduled',
      data: { ...queuedData, attempt: 1, retryAt, reason: 'blocked by Google' },
    };
    const requeued: CheckWorkEvent = { type: 'CheckQueued', data: { ...queuedData, attempt: 2 } };
    spec
      .given([
        { streamName: checkWorkStreamName(batchId), ...queued, position: 700 },
        { streamName: checkWorkStreamName(batchId), ...retry, position: 701 },
        { streamName: checkWorkStreamName(batchId), ...requeued, position: 702 },
      ])
      .then([
        { kind: 'insert', table: 'check_progress', row: { ...queuedRow, state: 'queued', attempt: 1, version: 700 } },
        {
          kind: 'insert',
          table: 'check_progress',
          row: {
            ...queuedRow,
            state: 'retry_waiting',
            attempt: 2,
            retry_at: Date.parse(retryAt),
            reason: 'blocked by Google',
            version: 701,
          },
        },
        { kind: 'insert', table: 'check_progress', row: { ...queuedRow, state: 'queued', attempt: 2, version: 702 } },
      ]);
  });
});
