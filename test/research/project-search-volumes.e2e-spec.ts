import { ProjectionRunner } from '@rank/projector/projection-runner';
import { VolumeRecorder } from '@rank/research/volume-recorder';
import { keywordMetrics as metrics } from '../support/keyword-metrics';
import { waitUntilLogProjected } from '../support/projected-log';
import type { TestApp } from '../support/test-app';
import { createProject, NOW, seed, startReadsApp } from '../tracking/reads/reads-fixture';

/**
 * Project detail, keyword-updates and the full CSV merge in the keywords' stored volumes through one
 * ProjectSearchVolumes, which keeps a project's map while its keywords and the projected volumes are
 * unchanged (the lookup names every keyword in one ClickHouse query: 20-40 ms for 3,500 keywords).
 * This proves the lookup is made once while nothing changes, and that a volume fetched by another
 * process (appended to the log, then projected) and a keyword added are in the very next answer of
 * each route.
 */

const DAY_MS = 86_400_000;
const at = (daysBeforeNow: number) => new Date(NOW.getTime() - daysBeforeNow * DAY_MS).toISOString();
const US = { geoCode: 'US', langCode: 'en' };

describe('the stored volumes of a project, looked up once per change', () => {
  let app: TestApp;
  let key: string;
  let projectId: string;
  let ids: Record<string, string>;
  let volumeLookups: () => number;

  const projected = async () =>
    expect(await waitUntilLogProjected(app.running.app.get(ProjectionRunner), app.running.stores.eventStore)).toBeUndefined();

  /** Average monthly searches by keyword text, as each of the three routes shows them. */
  const shown = async () => {
    const detail = await app.request('GET', `/api/projects/${projectId}`, { key });
    expect(detail.status).toBe(200);
    const updates = await app.request('GET', '/api/projects/keyword-updates', { key, query: { projectId } });
    expect(updates.status).toBe(200);
    const csv = await app.request('GET', '/api/projects/export', { key, query: { projectId, format: 'full' } });
    expect(csv.status).toBe(200);
    const volumeColumn = (text: string) => (text === '' ? null : Number(text));
    return {
      detail: Object.fromEntries(
        (detail.body.project.keywords as { keyword: string; avgMonthlySearches: number | null }[]).map((k) => [
          k.keyword,
          k.avgMonthlySearches,
        ]),
      ),
      keywordUpdates: Object.fromEntries(
        Object.values(updates.body.data as Record<string, { keyword: { value: string; avgMonthlySearches: number | null } }>).map((e) => [
          e.keyword.value,
          e.keyword.avgMonthlySearches,
        ]),
      ),
      csv: Object.fromEntries(
        csv.text
          .replace(/^\uFEFF/, '')
          .split('\r\n')
          .slice(1)
          .filter(Boolean)
          .map((line) => [line.split(';')[0], volumeColumn(line.split(';')[2]!)]),
      ),
    };
  };

  beforeAll(async () => {
    app = await startReadsApp();
    ({ apiKey: key } = await app.createAccount());
    ({ projectId, ids } = await createProject(app, key, { domain: 'ours.com' }, [{ keywords: ['red shoes', 'blue shoes'], ...US }]));
    await app.running.app.get(VolumeRecorder).fetched(US, 'dataforseo', new Date(at(3)), [metrics('red shoes', 5400)]);
    await seed(app, [
      { projectId, keywordId: ids['red shoes']!, at: at(1), urls: ['https://ours.com/red'], projectDomains: ['ours.com'] },
      { projectId, keywordId: ids['blue shoes']!, at: at(1), urls: ['https://other.com/'] },
    ]);
    await projected();
    const query = jest.spyOn(app.running.stores.readStore, 'query');
    volumeLookups = () => query.mock.calls.filter(([sql]) => /\bFROM keyword_volumes\b/.test(sql)).length;
  }, 60_000);

  afterAll(() => app?.close());

  it('looks the volumes up once for the three routes while nothing changes', async () => {
    const before = volumeLookups();
    const expected = { 'red shoes': 5400, 'blue shoes': null };
    expect(await shown()).toEqual({ detail: expected, keywordUpdates: expected, csv: expected });
    expect(volumeLookups() - before).toBe(1);
    expect(await shown()).toEqual({ detail: expected, keywordUpdates: expected, csv: expected });
    expect(volumeLookups() - before).toBe(1);

    // Project detail asks its two memos (volumes, last check day) with one read of the log's end:
    // on EventStoreDB each read is a round trip.
    // (Counted by hand: the platform hands out the store behind a proxy that binds its methods, which jest.spyOn cannot see through.)
    const store = app.running.stores.eventStore;
    const lastPosition = store.lastPosition.bind(store);
    let logEnds = 0;
    Object.assign(store, { lastPosition: () => (logEnds++, lastPosition()) });
    try {
      expect((await app.request('GET', `/api/projects/${projectId}`, { key })).status).toBe(200);
    } finally {
      delete (store as unknown as Record<string, unknown>).lastPosition;
    }
    expect(logEnds).toBe(1);
  });

  it("shows a volume projected from another process's fetch, and a keyword added, in the next answer of each route", async () => {
    await shown();
    // Fetched elsewhere (a separate projector, a volume fetcher in another replica): appended to the log, then projected.
    await app.running.app.get(VolumeRecorder).fetched(US, 'dataforseo', new Date(at(1)), [metrics('blue shoes', 880)]);
    await projected();
    const withVolume = { 'red shoes': 5400, 'blue shoes': 880 };
    expect(await shown()).toEqual({ detail: withVolume, keywordUpdates: withVolume, csv: withVolume });

    // A keyword whose volume is stored already (tracked by another project, say): the map held now
    // lacks it, and no volume is projected when it is added, so only the new keyword list can say so.
    await app.running.app.get(VolumeRecorder).fetched(US, 'dataforseo', new Date(at(1)), [metrics('green boots', 90)]);
    await projected();
    expect(await shown()).toEqual({ detail: withVolume, keywordUpdates: withVolume, csv: withVolume });
    const added = await app.request('POST', '/api/projects/keywords', { key, body: { projectId, keywords: ['green boots'], ...US } });
    expect(added.status).toBe(200);
    const withKeyword = { ...withVolume, 'green boots': 90 };
    expect(await shown()).toEqual({ detail: withKeyword, keywordUpdates: withKeyword, csv: withKeyword });
  });
});
