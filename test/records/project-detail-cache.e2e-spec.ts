import { randomUUID } from 'node:crypto';
import { ProjectionRunner } from '@rank/projector/projection-runner';
import { findProject } from '@rank/projects/domain/workspace';
import { ProjectContentRepository, WorkspaceRepository } from '@rank/projects/workspace.repository';
import { KeywordVolumes } from '@rank/research/keyword-volumes';
import { averageMonthlySearches } from '@rank/research/domain/twelve-months';
import { VolumeRecorder } from '@rank/research/volume-recorder';
import { checkWorkStreamName, CheckWorkEvent } from '@rank/tracking/domain/check.events';
import { toProjectDetail } from '../../apps/api/src/projects/project.view';
import { keywordMetrics as metrics } from '../support/keyword-metrics';
import { waitUntilLogProjected } from '../support/projected-log';
import { seedChecks } from '../support/seed-checks';
import type { TestApp } from '../support/test-app';
import { createProject, NOW, share, startReadsApp } from '../tracking/reads/reads-fixture';
import { PREVIOUS_LAST_CHECK_DAY_QUERY } from '../support/previous-last-check-day';

/**
 * GET /api/projects/:id now renders its body once per change and keeps it. This proves the answer did
 * not change (the reference is the controller as it was, with the last-check-day query verbatim, on
 * the same seeded data: the endpoint's text must equal JSON.stringify of it, byte for byte), and
 * that each thing the answer is built from, changed by another process's events (appended to the
 * log, not through this api), changes the very next answer once projected.
 */

async function previousAnswer(app: TestApp, accountId: string, projectId: string): Promise<string> {
  const project = findProject(await app.running.app.get(WorkspaceRepository).load(accountId), projectId)!;
  const content = await app.running.app.get(ProjectContentRepository).load(projectId);
  const volumes = new Map(
    [...(await app.running.app.get(KeywordVolumes).ofKeywords(content.keywords))].map(([keywordId, v]) => [
      keywordId,
      averageMonthlySearches(v),
    ]),
  );
  const [row] = await app.running.stores.readStore.query<{ date: string; checked: string; failed: string; pending: string }>(
    PREVIOUS_LAST_CHECK_DAY_QUERY,
    { projectId },
  );
  const lastCheckDay = row
    ? { date: row.date, checked: Number(row.checked), failed: Number(row.failed), pending: Number(row.pending) }
    : null;
  return JSON.stringify({ success: true, project: toProjectDetail(project, content, volumes, lastCheckDay) });
}

const DAY_MS = 86_400_000;
const at = (daysBeforeNow: number) => new Date(NOW.getTime() - daysBeforeNow * DAY_MS).toISOString();

describe('GET /api/projects/:id, rendered once per change', () => {
  let app: TestApp;
  let key: string;
  let accountId: string;
  let projectId: string;
  let ids: Record<string, string>;

  const detail = async () => {
    const response = await app.request('GET', `/api/projects/${projectId}`, { key });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    return response;
  };
  const projected = async () =>
    expect(await waitUntilLogProjected(app.running.app.get(ProjectionRunner), app.running.stores.eventStore)).toBeUndefined();
  const queue = async (keywordId: string, requestedAt: string): Promise<string> => {
    const checkId = randomUUID().replace(/-/g, '').slice(0, 24);
    const event: CheckWorkEvent = {
      type: 'CheckQueued',
      data: { checkId, batchId: 'order-1', projectId, accountId, keywordId, creditsPerCheck: 1, requestedAt },
    };
    await app.running.stores.eventStore.appendToStream(checkWorkStreamName(`order-${checkId}`), [{ id: randomUUID(), ...event }], {
      expectedRevision: 'any',
    });
    return checkId;
  };

  beforeAll(async () => {
    app = await startReadsApp();
    ({ apiKey: key, accountId } = await app.createAccount());
    ({ projectId, ids } = await createProject(app, key, { domain: 'ours.com' }, [
      { keywords: ['red shoes', 'blue shoes', 'green boots', 'ünïcode "quoted" shoes'], geoCode: 'US', langCode: 'en' },
      { keywords: ['rote schuhe', 'blue shoes'], geoCode: 'DE', langCode: 'de' },
    ]));
    // Volumes for some keywords: one with a figure, one with only a history (averaged), one the provider did not know.
    const recorder = app.running.app.get(VolumeRecorder);
    await recorder.fetched({ geoCode: 'US', langCode: 'en' }, 'dataforseo', new Date(at(3)), [
      metrics('red shoes', 5400),
      metrics('blue shoes', null, [100, 200, 300]),
      metrics('green boots', null),
    ]);
    await recorder.fetched({ geoCode: 'DE', langCode: 'de' }, 'dataforseo', new Date(at(3)), [metrics('rote schuhe', 880)]);
    // Checks over several days; the last day has a completed, a failed and a still queued check.
    await seedChecks(app.running.stores.eventStore, [
      { projectId, keywordId: ids['red shoes']!, at: at(5), urls: ['https://ours.com/'], projectDomains: ['ours.com'] },
      { projectId, keywordId: ids['blue shoes']!, at: at(2), urls: ['https://other.com/'] },
      { projectId, keywordId: ids['green boots']!, at: at(2), failedReason: 'blocked' },
    ]);
    await queue(ids['rote schuhe']!, at(2));
    await projected();
  }, 60_000);

  afterAll(() => app?.close());

  it('answers byte for byte what the previous controller answered, from the cache too and to an anonymous reader of a shared project', async () => {
    const expected = await previousAnswer(app, accountId, projectId);
    const body = JSON.parse(expected);
    expect(body.project.keywords.map((k: { avgMonthlySearches: number | null }) => k.avgMonthlySearches)).toEqual([
      5400,
      200,
      null,
      null,
      880,
      null,
    ]);
    expect(body.project.lastCheckDay).toEqual({ date: at(2).slice(0, 10), checked: 1, failed: 1, pending: 1 });

    expect((await detail()).text).toBe(expected);
    expect((await detail()).text).toBe(expected);

    await share(app, key, projectId, { domain: 'ours.com' });
    const shared = await previousAnswer(app, accountId, projectId);
    expect(JSON.parse(shared).project.shared).toBe(true);
    const anonymous = await app.request('GET', `/api/projects/${projectId}`, { key: null });
    expect(anonymous.status).toBe(200);
    expect(anonymous.text).toBe(shared);
    expect((await detail()).text).toBe(shared);
  });

  it('gives the next answer a keyword added, a volume projected, a check queued and completed, a setting changed', async () => {
    const before = JSON.parse((await detail()).text).project;

    // A keyword added through the api.
    const added = await app.request('POST', '/api/projects/keywords', {
      key,
      body: { projectId, keywords: ['brown boots'], geoCode: 'US', langCode: 'en' },
    });
    expect(added.status).toBe(200);
    const withKeyword = JSON.parse((await detail()).text).project;
    expect(withKeyword.keywords.map((k: { keyword: string }) => k.keyword)).toEqual([
      ...before.keywords.map((k: { keyword: string }) => k.keyword),
      'brown boots',
    ]);
    const brownBoots = withKeyword.keywords.at(-1)._id as string;
    await projected();

    // Its volume, fetched by another process: appended to the log, then projected.
    await app.running.app
      .get(VolumeRecorder)
      .fetched({ geoCode: 'US', langCode: 'en' }, 'dataforseo', new Date(at(1)), [metrics('brown boots', 1300)]);
    await projected();
    let answer = await detail();
    expect(JSON.parse(answer.text).project.keywords.at(-1)).toMatchObject({ _id: brownBoots, avgMonthlySearches: 1300 });
    expect(answer.text).toBe(await previousAnswer(app, accountId, projectId));

    // A check of a new day queued by the dispatcher...
    const checkId = await queue(brownBoots, at(0));
    await projected();
    answer = await detail();
    expect(JSON.parse(answer.text).project.lastCheckDay).toEqual({ date: at(0).slice(0, 10), checked: 0, failed: 0, pending: 1 });
    expect(answer.text).toBe(await previousAnswer(app, accountId, projectId));

    // ...and completed by a scraper.
    await seedChecks(app.running.stores.eventStore, [
      { projectId, keywordId: brownBoots, at: at(0), urls: ['https://ours.com/boots'], checkId },
    ]);
    await projected();
    answer = await detail();
    expect(JSON.parse(answer.text).project.lastCheckDay).toEqual({ date: at(0).slice(0, 10), checked: 1, failed: 0, pending: 0 });
    expect(answer.text).toBe(await previousAnswer(app, accountId, projectId));

    // Another project's check leaves this answer as it is.
    const other = await createProject(app, key, { domain: 'theirs.com' }, [{ keywords: ['x'], geoCode: 'US', langCode: 'en' }]);
    await seedChecks(app.running.stores.eventStore, [{ projectId: other.projectId, keywordId: other.ids['x']!, at: at(0), urls: [] }]);
    await projected();
    expect((await detail()).text).toBe(answer.text);

    // A setting changed.
    const renamed = await app.request('PUT', '/api/projects', { key, body: { _id: projectId, name: 'Renamed', domain: 'ours.com' } });
    expect(renamed.status).toBe(200);
    answer = await detail();
    expect(JSON.parse(answer.text).project.name).toBe('Renamed');
    expect(answer.text).toBe(await previousAnswer(app, accountId, projectId));
  }, 60_000);
});
