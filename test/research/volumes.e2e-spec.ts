import {
  FAKE_DATAFORSEO_KEYWORDS_LOGIN,
  FAKE_DATAFORSEO_KEYWORDS_PASSWORD,
  FakeDataForSeoKeywords,
  fakeFiguresFor,
  startDataForSeoKeywordsFake,
} from '@rank/providers/dataforseo/testing/fake-dataforseo-keywords';
import { DATAFORSEO_SEARCH_VOLUME_PATH } from '@rank/providers/dataforseo/keyword-data.client';
import { ProjectionRunner } from '@rank/projector/projection-runner';
import { VolumeFetcherLifecycle } from '@rank/research/volume-fetcher.lifecycle';
import { VolumesReader } from '@rank/research/volumes.reader';
import { OpenApiConformance, RecordedAnswer, recordAnswers } from '../support/openapi-conformance';
import { startTestApp, TestApp } from '../support/test-app';
import { waitFor } from '@rank/platform/testing/wait-for';

/**
 * Volumes over HTTP with DataForSEO's Keywords Data API played by its fake (DATAFORSEO_LOGIN,
 * DATAFORSEO_PASSWORD, DATAFORSEO_BASE_URL): keywords added → fetched in the background per market
 * → every read that shows them.
 */
describe('Keyword volumes from DataForSEO', () => {
  let app: TestApp;
  /** Every answer of the tests below, checked against the served OpenAPI document at the end. */
  let answers: RecordedAnswer[];
  let fake: FakeDataForSeoKeywords;
  let key: string;
  let projectId: string;
  const ids: Record<string, string> = {};

  const volumeCalls = () => fake.requests.filter((r) => r.path === DATAFORSEO_SEARCH_VOLUME_PATH);
  const idle = async () => {
    await app.running.app.get(VolumeFetcherLifecycle).current!.idle();
    await app.running.app.get(ProjectionRunner).waitUntilCaughtUp();
  };

  beforeAll(async () => {
    fake = await startDataForSeoKeywordsFake();
    fake.keywords.set('running shoes', {
      avgMonthlySearches: 5000,
      competition: 'HIGH',
      competitionIndex: 91,
      cpcLow: 0.8,
      cpcHigh: 2.4,
      history: Array.from({ length: 12 }, (_, i) => ({ year: i < 8 ? 2024 : 2025, month: i < 8 ? i + 5 : i - 7, value: 4000 + i * 100 })),
    });
    fake.unknown.add('zzqx shoes');
    app = await startTestApp({
      env: {
        DATAFORSEO_LOGIN: FAKE_DATAFORSEO_KEYWORDS_LOGIN,
        DATAFORSEO_PASSWORD: FAKE_DATAFORSEO_KEYWORDS_PASSWORD,
        DATAFORSEO_BASE_URL: fake.url,
      },
    });
    answers = recordAnswers(app);
    ({ apiKey: key } = await app.createAccount());
    projectId = (await app.request('POST', '/api/projects', { key, body: { name: 'Shoes', domain: 'shoes.example' } })).body.project._id;
    await app.request('POST', '/api/projects/keywords', {
      key,
      body: { projectId, keywords: ['running shoes', 'trail shoes', 'zzqx shoes'], geoCode: 'US', langCode: 'en' },
    });
    await app.request('POST', '/api/projects/keywords', {
      key,
      body: { projectId, keywords: ['laufschuhe'], geoCode: 'DE', langCode: 'de' },
    });
    for (const k of (await app.request('GET', `/api/projects/${projectId}`, { key })).body.project.keywords) ids[k.keyword] = k._id;
  });
  afterAll(async () => {
    await app.close();
    await fake.close();
  });

  it('fetches the added keywords in the background, one search_volume call per market, and lists those with data', async () => {
    const bulk = await waitFor(
      () => app.request('GET', '/api/projects/keyword-volumes', { key, query: { projectId } }),
      (r) => Object.keys(r.body.data ?? {}).length === 3,
    );
    await idle();
    const calls = volumeCalls();
    expect(calls).toHaveLength(2);
    const tasks = calls.map((c) => (c.body as Record<string, unknown>[])[0]);
    expect(tasks).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          location_code: 2840,
          language_code: 'en',
          keywords: expect.arrayContaining(['running shoes', 'trail shoes', 'zzqx shoes']),
        }),
        expect.objectContaining({ location_code: 2276, language_code: 'de', keywords: ['laufschuhe'] }),
      ]),
    );
    const running = bulk.body.data[ids['running shoes']];
    expect(running).toEqual({
      v: 'running shoes',
      g: 'US',
      l: 'en',
      s: 'dataforseo',
      lv: 5100,
      tr: [4000, 4100, 4200, 4300, 4400, 4500, 4600, 4700, 4800, 4900, 5000, 5100],
      am: 4550,
      ci: 91,
      cl: 0.8,
      ch: 2.4,
    });
    const trail = fakeFiguresFor('trail shoes');
    expect(bulk.body.data[ids['trail shoes']]).toMatchObject({
      v: 'trail shoes',
      lv: trail.history.at(-1)!.value,
      ci: trail.competitionIndex,
      tr: trail.history.map((m) => m.value),
    });
    expect(bulk.body.data[ids.laufschuhe]).toMatchObject({ v: 'laufschuhe', g: 'DE', l: 'de' });
    // The provider knew nothing of it: fetched (not asked again), but not listed.
    expect(bulk.body.data[ids['zzqx shoes']]).toBeUndefined();
  });

  it('finds for the monthly sweep the tracked keywords whose volumes are older than a date, or missing', async () => {
    const reader = app.running.app.get(VolumesReader);
    expect(await reader.staleTracked(new Date(Date.now() - 3600_000), 100)).toEqual([]);
    const all = await reader.staleTracked(new Date(Date.now() + 3600_000), 100);
    expect(all.map((k) => `${k.geoCode}/${k.langCode}/${k.keyword}`).sort()).toEqual([
      'DE/de/laufschuhe',
      'US/en/running shoes',
      'US/en/trail shoes',
      'US/en/zzqx shoes',
    ]);
  });

  it("shows one keyword's whole history in single mode, and null for a keyword without data", async () => {
    const single = await app.request('GET', '/api/projects/keyword-volumes', {
      key,
      query: { projectId, keywordId: ids['running shoes'] },
    });
    expect(single.body).toEqual({
      success: true,
      data: {
        keywordId: ids['running shoes'],
        keyword: 'running shoes',
        geoCode: 'US',
        langCode: 'en',
        source: 'dataforseo',
        avgMonthlySearches: 5000,
        competition: 'HIGH',
        competitionIndex: 91,
        cpcLow: 0.8,
        cpcHigh: 2.4,
        currency: 'USD',
        history: Array.from({ length: 12 }, (_, i) => ({ year: i < 8 ? 2024 : 2025, month: i < 8 ? i + 5 : i - 7, value: 4000 + i * 100 })),
        fetchedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      },
    });
    const none = await app.request('GET', '/api/projects/keyword-volumes', { key, query: { projectId, keywordId: ids['zzqx shoes'] } });
    expect(none.body).toEqual({ success: true, data: null });
  });

  it('fills avgMonthlySearches in project detail and keyword-updates, and sorts keyword-updates by volume', async () => {
    const detail = (await app.request('GET', `/api/projects/${projectId}`, { key })).body.project.keywords;
    const avg = Object.fromEntries(
      detail.map((k: { keyword: string; avgMonthlySearches: number | null }) => [k.keyword, k.avgMonthlySearches]),
    );
    expect(avg).toEqual({
      'running shoes': 5000,
      'trail shoes': trail(),
      laufschuhe: fakeFiguresFor('laufschuhe').avgMonthlySearches,
      'zzqx shoes': null,
    });

    const desc = await app.request('GET', '/api/projects/keyword-updates', {
      key,
      query: { projectId, sortBy: 'volume', sortOrder: 'desc' },
    });
    const order = (body: { data: Record<string, { keyword: { value: string; avgMonthlySearches: number | null } }> }) =>
      Object.values(body.data).map((e) => e.keyword.value);
    const known = ['running shoes', 'trail shoes', 'laufschuhe'].sort((a, b) => (avg[b] as number) - (avg[a] as number));
    expect(order(desc.body)).toEqual([...known, 'zzqx shoes']);
    expect(desc.body.data[ids['running shoes']].keyword.avgMonthlySearches).toBe(5000);
    const asc = await app.request('GET', '/api/projects/keyword-updates', {
      key,
      query: { projectId, sortBy: 'volume', sortOrder: 'asc' },
    });
    // Unknown volumes come last in both orders.
    expect(order(asc.body)).toEqual([...[...known].reverse(), 'zzqx shoes']);
  });

  it("fills the CSV export's Volume column", async () => {
    const csv = await app.request('GET', '/api/projects/export', { key, query: { projectId } });
    const rows = new Map(
      csv.text
        .replace(/^\uFEFF/, '')
        .split('\r\n')
        .slice(1)
        .filter(Boolean)
        .map((line) => [line.split(';')[0], line.split(';')[2]]),
    );
    expect(rows.get('running shoes')).toBe('5000');
    expect(rows.get('zzqx shoes')).toBe('');
  });

  it('shares volumes between projects and accounts: the same keywords elsewhere are not fetched again', async () => {
    const before = volumeCalls().length;
    const other = await app.createAccount();
    const otherProject = (
      await app.request('POST', '/api/projects', { key: other.apiKey, body: { name: 'Other', domain: 'other.example' } })
    ).body.project._id;
    await app.request('POST', '/api/projects/keywords', {
      key: other.apiKey,
      body: { projectId: otherProject, keywords: ['Running Shoes', 'zzqx shoes'], geoCode: 'US', langCode: 'en' },
    });
    await app.running.app.get(ProjectionRunner).waitUntilCaughtUp();
    await idle();
    expect(volumeCalls()).toHaveLength(before);
    const bulk = await app.request('GET', '/api/projects/keyword-volumes', { key: other.apiKey, query: { projectId: otherProject } });
    expect(Object.values(bulk.body.data).map((r) => (r as { v: string }).v)).toEqual(['running shoes']);
  });

  it('serves keyword-volumes without a key when the project is shared, and 401 before', async () => {
    expect((await app.request('GET', '/api/projects/keyword-volumes', { query: { projectId } })).status).toBe(401);
    const shared = await app.request('PUT', '/api/projects', {
      key,
      body: { _id: projectId, name: 'Shoes', domain: 'shoes.example', shared: true },
    });
    expect(shared.status).toBe(200);
    const anonymous = await app.request('GET', '/api/projects/keyword-volumes', { query: { projectId } });
    expect(anonymous.status).toBe(200);
    expect(anonymous.body.data[ids['running shoes']].lv).toBe(5100);
    const single = await app.request('GET', '/api/projects/keyword-volumes', { query: { projectId, keywordId: ids['running shoes'] } });
    expect(single.body.data.avgMonthlySearches).toBe(5000);
  });

  function trail(): number {
    return fakeFiguresFor('trail shoes').avgMonthlySearches as number;
  }
  // Last: it reads what every test above recorded.
  describe('the OpenAPI document', () => {
    it('describes every answer above', async () => {
      const conformance = await OpenApiConformance.of(app);
      expect(conformance.problemsOfAnswers(answers)).toEqual([]);
      expect([...conformance.coverage]).toEqual(expect.arrayContaining(['GET /api/projects/keyword-volumes 200 application/json']));
    });
  });
});
