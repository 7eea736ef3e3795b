import type { TestApp } from '../../support/test-app';
import { createProject, seed, serp, share, startReadsApp } from './reads-fixture';

const SETTINGS = { domain: 'ours.com', aliases: 'ours-alias.net' };
const OURS = 'https://www.ours.com/running';

describe('GET /api/projects/keyword-updates', () => {
  let app: TestApp;
  let key: string;
  let projectId: string;
  let ids: Record<string, string>;
  /** Check ids by a short name. */
  const check: Record<string, string> = {};

  const get = (query: Record<string, string | undefined>, as: string | null = key) =>
    app.request('GET', '/api/projects/keyword-updates', { key: as, query: { projectId, ...query } });
  const positionsOf = (body: any, keywordId: string) =>
    body.data[keywordId].updates.map((u: any) => [u.date.slice(0, 10), u.status, u.position?.position ?? null]);

  beforeAll(async () => {
    app = await startReadsApp();
    key = (await app.createAccount()).apiKey;
    ({ projectId, ids } = await createProject(app, key, SETTINGS, [
      { keywords: ['running shoes', 'trail shoes', 'hiking boots', 'trail running'], geoCode: 'US', langCode: 'en' },
      { keywords: ['running shoes'], geoCode: 'GB', langCode: 'en' },
      { keywords: ['laufschuhe'], geoCode: 'DE', langCode: 'de' },
    ]));
    const running = ids['running shoes']!;
    const at = (keywordId: string, when: string, position: number | null, extra: Record<string, unknown> = {}) => ({
      projectId,
      keywordId,
      at: when,
      projectDomains: ['ours.com', 'ours-alias.net'],
      ...(position === null ? { failedReason: 'Blocked by Google (captcha)' } : { urls: serp(position ? { [position]: OURS } : {}) }),
      ...extra,
    });
    const names = [
      'feb10',
      'feb27',
      'mar10',
      'mar11',
      'mar16early',
      'mar16late',
      'mar16failed',
      'mar17failed',
      'mar18',
      'mar19failed',
      'trail',
      'hiking',
      'gb',
      'trailRunningFailed',
    ];
    const seeded = await seed(app, [
      at(running, '2026-02-10T09:00:00.000Z', 20), // before the default window
      at(running, '2026-02-27T09:00:00.000Z', 9),
      at(running, '2026-03-10T09:00:00.000Z', 8),
      at(running, '2026-03-11T09:00:00.000Z', 7),
      at(running, '2026-03-16T08:00:00.000Z', 5),
      at(running, '2026-03-16T10:00:00.000Z', 3),
      at(running, '2026-03-16T12:00:00.000Z', null), // fails after the day's success: the success stays
      at(running, '2026-03-17T09:00:00.000Z', null), // the day's only check failed
      at(running, '2026-03-18T09:00:00.000Z', 2, { aiOverviewUrls: ['https://cited.example/a'] }),
      at(running, '2026-03-19T09:00:00.000Z', null),
      at(ids['trail shoes']!, '2026-03-18T09:00:00.000Z', 0),
      {
        projectId,
        keywordId: ids['hiking boots']!,
        at: '2026-03-18T09:00:00.000Z',
        projectDomains: ['ours.com', 'ours-alias.net'],
        urls: serp({ 12: 'https://blog.ours-alias.net/boots' }),
      },
      at(ids['running shoes|GB']!, '2026-03-18T11:00:00.000Z', 1),
      at(ids['trail running']!, '2026-03-18T09:00:00.000Z', null),
    ]);
    names.forEach((name, i) => (check[name] = seeded[i]!));
    // The scraper delivering a check twice (or a replay) must not show it twice.
    await seed(app, [
      { ...at(running, '2026-03-18T09:00:00.000Z', 2, { aiOverviewUrls: ['https://cited.example/a'] }), checkId: check.mar18 },
    ]);
  });
  afterAll(() => app.close());

  it('answers every tracked keyword, with its updates of the last 30 days, daily, oldest first', async () => {
    const { status, body } = await get({});
    expect(status).toBe(200);
    expect(body.success).toBe(true);
    // No sortBy: the order the keywords were added; keywords without checks are still listed.
    expect(Object.keys(body.data)).toEqual([
      ids['running shoes'],
      ids['trail shoes'],
      ids['hiking boots'],
      ids['trail running'],
      ids['running shoes|GB'],
      ids.laufschuhe,
    ]);
    const running = body.data[ids['running shoes']!];
    expect(running.keyword).toEqual({
      _id: ids['running shoes'],
      value: 'running shoes',
      geoCode: 'US',
      langCode: 'en',
      avgMonthlySearches: null,
    });
    expect(running.updates).toEqual([
      {
        _id: check.feb27,
        date: '2026-02-27T09:00:00.000Z',
        status: 'success',
        position: { position: 9, url: OURS, title: `Title of ${OURS}`, domain: 'ours.com' },
        aiSerpId: null,
      },
      expect.objectContaining({ _id: check.mar10, status: 'success' }),
      expect.objectContaining({ _id: check.mar11, status: 'success' }),
      // The day's latest successful check wins over an earlier success and a later failure.
      expect.objectContaining({
        _id: check.mar16late,
        date: '2026-03-16T10:00:00.000Z',
        position: expect.objectContaining({ position: 3 }),
      }),
      // A day with only a failed check shows it as failed, never as "not ranking".
      { _id: check.mar17failed, date: '2026-03-17T09:00:00.000Z', status: 'failed', position: null, aiSerpId: null },
      {
        _id: check.mar18,
        date: '2026-03-18T09:00:00.000Z',
        status: 'success',
        position: expect.objectContaining({ position: 2 }),
        aiSerpId: check.mar18,
      },
      expect.objectContaining({ _id: check.mar19failed, status: 'failed', position: null }),
    ]);
    expect(body.data[ids['trail shoes']!].updates).toEqual([
      {
        _id: check.trail,
        date: '2026-03-18T09:00:00.000Z',
        status: 'success',
        position: { position: 0, url: '', title: '', domain: '' },
        aiSerpId: null,
      },
    ]);
    expect(body.data[ids['hiking boots']!].updates[0].position).toEqual({
      position: 12,
      url: 'https://blog.ours-alias.net/boots',
      title: 'Title of https://blog.ours-alias.net/boots',
      domain: 'blog.ours-alias.net',
    });
    expect(body.data[ids.laufschuhe!]).toEqual({
      keyword: { _id: ids.laufschuhe, value: 'laufschuhe', geoCode: 'DE', langCode: 'de', avgMonthlySearches: null },
      updates: [],
    });
  });

  it('weekly and monthly give the latest successful check of each ISO week and calendar month', async () => {
    const weekly = await get({ aggregation: 'weekly' });
    expect(positionsOf(weekly.body, ids['running shoes']!)).toEqual([
      ['2026-02-27', 'success', 9], // week of Monday 23 Feb
      ['2026-03-11', 'success', 7], // week of Monday 9 Mar
      ['2026-03-18', 'success', 2], // week of Monday 16 Mar: the 19th failed and is ignored
    ]);
    expect(weekly.body.data[ids['trail running']!].updates).toEqual([]); // only a failure this week
    const monthly = await get({ aggregation: 'monthly' });
    expect(positionsOf(monthly.body, ids['running shoes']!)).toEqual([
      ['2026-02-27', 'success', 9],
      ['2026-03-18', 'success', 2],
    ]);
  });

  it('takes startDate and endDate as whole UTC days; startDate alone or endDate alone move the window', async () => {
    const feb = await get({ startDate: '2026-02-01', endDate: '2026-02-27' });
    expect(positionsOf(feb.body, ids['running shoes']!)).toEqual([
      ['2026-02-10', 'success', 20],
      ['2026-02-27', 'success', 9],
    ]);
    const oneDay = await get({ startDate: '2026-03-16', endDate: '2026-03-16' });
    expect(positionsOf(oneDay.body, ids['running shoes']!)).toEqual([['2026-03-16', 'success', 3]]);
    // endDate alone: the 30 days before it.
    const endOnly = await get({ endDate: '2026-02-28' });
    expect(positionsOf(endOnly.body, ids['running shoes']!).map((u: unknown[]) => u[0])).toEqual(['2026-02-10', '2026-02-27']);
    // startDate alone: up to today.
    const startOnly = await get({ startDate: '2026-03-18' });
    expect(positionsOf(startOnly.body, ids['running shoes']!).map((u: unknown[]) => u[0])).toEqual(['2026-03-18', '2026-03-19']);
  });

  it('filters by search (case-insensitive substring), geoCode and langCode, in any case', async () => {
    expect(Object.keys((await get({ search: 'SHOES' })).body.data)).toEqual([
      ids['running shoes'],
      ids['trail shoes'],
      ids['running shoes|GB'],
    ]);
    expect(Object.keys((await get({ geoCode: 'gb' })).body.data)).toEqual([ids['running shoes|GB']]);
    expect(Object.keys((await get({ langCode: 'DE' })).body.data)).toEqual([ids.laufschuhe]);
    const both = await get({ search: 'shoes', geoCode: 'us' });
    expect(Object.keys(both.body.data)).toEqual([ids['running shoes'], ids['trail shoes']]);
    expect(both.body.data[ids['running shoes']!].updates).toHaveLength(7);
    expect((await get({ search: 'nothing like this' })).body.data).toEqual({});
  });

  it('sorts by position (latest successful update) with unranked and never-checked keywords last in both orders', async () => {
    const unranked = [ids.laufschuhe, ids['trail running'], ids['trail shoes']]; // by keyword text
    const asc = await get({ sortBy: 'position', sortOrder: 'asc' });
    expect(Object.keys(asc.body.data)).toEqual([ids['running shoes|GB'], ids['running shoes'], ids['hiking boots'], ...unranked]);
    const desc = await get({ sortBy: 'position' }); // desc is the default
    expect(Object.keys(desc.body.data)).toEqual([ids['hiking boots'], ids['running shoes'], ids['running shoes|GB'], ...unranked]);
  });

  it('sorts by keyword text, and by volume (unknown for all, so by keyword text)', async () => {
    const asc = ['hiking boots', 'laufschuhe', 'running shoes|GB', 'running shoes', 'trail running', 'trail shoes'].map((k) => ids[k]);
    expect(Object.keys((await get({ sortBy: 'keyword', sortOrder: 'asc' })).body.data)).toEqual(asc);
    expect(Object.keys((await get({ sortBy: 'keyword' })).body.data)).toEqual([...asc].reverse());
    expect(Object.keys((await get({ sortBy: 'volume' })).body.data)).toEqual(asc);
  });

  it('refuses bad input with 400 naming the field', async () => {
    const cases: [Record<string, string | undefined>, RegExp][] = [
      [{ projectId: undefined }, /projectId is required/],
      [{ projectId: 'nope' }, /projectId must be a 24-character hex id/],
      [{ startDate: '2026-02-30' }, /startDate must be a real calendar date/],
      [{ endDate: '20260301' }, /endDate must be a real calendar date/],
      [{ startDate: '2026-03-10', endDate: '2026-03-01' }, /startDate .* must not be after endDate/],
      [{ aggregation: 'yearly' }, /aggregation must be one of daily, weekly, monthly/],
      [{ sortBy: 'rank' }, /sortBy must be one of keyword, position, volume/],
      [{ sortOrder: 'up' }, /sortOrder must be one of asc, desc/],
      [{ geoCode: 'XX' }, /geoCode must be an ISO 3166-1 alpha-2 country code/],
      [{ langCode: 'english' }, /langCode must be an ISO 639-1 language code/],
    ];
    for (const [query, message] of cases) {
      const response = await get(query);
      expect([query, response.status]).toEqual([query, 400]);
      expect(response.body.message).toMatch(message);
    }
  });

  it('hides the project from other accounts (404) and anonymous callers (401) until it is shared', async () => {
    const other = (await app.createAccount()).apiKey;
    expect((await get({}, other)).status).toBe(404);
    expect((await get({}, null)).status).toBe(401);
    expect((await get({ projectId: '0123456789abcdef01234567' })).status).toBe(404);
    await share(app, key, projectId, SETTINGS);
    const anonymous = await get({}, null);
    expect(anonymous.status).toBe(200);
    expect(anonymous.body.data[ids['running shoes']!].updates).toHaveLength(7);
    expect((await get({}, other)).status).toBe(200);
  });

  it('documents the four ranking reads in the OpenAPI document, with their query parameters and responses', async () => {
    const { body: doc } = await app.request('GET', '/api/openapi.json', { key: null });
    const paramsOf = (path: string) =>
      doc.paths[path].get.parameters.map((p: { name: string; in: string; required?: boolean }) => [p.name, p.in, p.required ?? false]);
    expect(paramsOf('/api/projects/keyword-updates')).toEqual([
      ['projectId', 'query', true],
      ['startDate', 'query', false],
      ['endDate', 'query', false],
      ['aggregation', 'query', false],
      ['search', 'query', false],
      ['geoCode', 'query', false],
      ['langCode', 'query', false],
      ['sortBy', 'query', false],
      ['sortOrder', 'query', false],
    ]);
    expect(paramsOf('/api/projects/position-history')).toEqual([['keywordUpdateId', 'query', true]]);
    expect(paramsOf('/api/projects/competitor-positions')).toEqual([
      ['projectId', 'query', true],
      ['competitorDomain', 'query', true],
      ['startDate', 'query', false],
      ['endDate', 'query', false],
    ]);
    expect(paramsOf('/api/projects/pages')).toEqual([['projectId', 'query', true]]);
    const schemaOf = (path: string) => {
      const ref: string = doc.paths[path].get.responses['200'].content['application/json'].schema.$ref;
      return doc.components.schemas[ref.split('/').pop()!];
    };
    expect(Object.keys(schemaOf('/api/projects/keyword-updates').properties)).toEqual(['success', 'data']);
    expect(schemaOf('/api/projects/keyword-updates').properties.data.additionalProperties.$ref).toMatch(/KeywordUpdatesEntry$/);
    expect(Object.keys(doc.components.schemas.KeywordUpdateView.properties)).toEqual(['_id', 'date', 'status', 'position', 'aiSerpId']);
    expect(Object.keys(doc.components.schemas.PositionHistoryView.properties)).toEqual(
      expect.arrayContaining([
        'keywordId',
        'keywordValue',
        'date',
        'resultList',
        'droppedDomains',
        'hasPreviousData',
        'aiOverviewResults',
        'aiContainsOurDomain',
      ]),
    );
    expect(Object.keys(schemaOf('/api/projects/competitor-positions').properties)).toEqual(
      expect.arrayContaining(['success', 'keywordHistory']),
    );
    expect(Object.keys(schemaOf('/api/projects/pages').properties)).toEqual(['success', 'data', 'lastPagesUpdate']);
    expect(Object.keys(doc.components.schemas.RankingPageView.properties)).toEqual([
      'url',
      'path',
      'keywordCount',
      'avgPosition',
      'bestPosition',
      'keywords',
      'avgPositionTrend',
      'avgPositionTrendGranularity',
      'weeklyAvgPositions',
    ]);
  });
});
