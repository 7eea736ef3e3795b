import type { TestApp } from '../../support/test-app';
import { createProject, seed, serp, share, startReadsApp } from './reads-fixture';

const SETTINGS = { domain: 'ours.com', aliases: 'ours-alias.net' };
const SHOES = 'https://www.ours.com/shoes';
const BOOTS = 'https://www.ours.com/boots';
const POST = 'https://blog.ours-alias.net/post';

/** The 14 Mondays ending with the week of "now" (Friday 2026-03-20), and the 14 days ending today. */
const WEEKS = [
  '2025-12-15',
  '2025-12-22',
  '2025-12-29',
  '2026-01-05',
  '2026-01-12',
  '2026-01-19',
  '2026-01-26',
  '2026-02-02',
  '2026-02-09',
  '2026-02-16',
  '2026-02-23',
  '2026-03-02',
  '2026-03-09',
  '2026-03-16',
];
const DAYS = Array.from({ length: 14 }, (_, i) => `2026-03-${String(7 + i).padStart(2, '0')}`);

/** A full series with the given points filled in and every other period empty. */
const series = (periods: string[], filled: Record<string, [number, number]>) =>
  periods.map((date) => ({ date, avgPosition: filled[date]?.[0] ?? null, keywordCount: filled[date]?.[1] ?? 0 }));

describe('GET /api/projects/pages', () => {
  let app: TestApp;
  let key: string;
  let projectId: string;
  let ids: Record<string, string>;

  const get = (query: Record<string, string | undefined>, as: string | null = key) =>
    app.request('GET', '/api/projects/pages', { key: as, query: { projectId, ...query } });

  beforeAll(async () => {
    app = await startReadsApp();
    key = (await app.createAccount()).apiKey;
    ({ projectId, ids } = await createProject(app, key, SETTINGS, [
      { keywords: ['shoes a', 'shoes b', 'shoes c', 'boots a', 'boots b', 'blog post', 'never checked'], geoCode: 'US', langCode: 'en' },
    ]));
    const on = (keyword: string, at: string, position: number, url = '') => ({
      projectId,
      keywordId: ids[keyword]!,
      at,
      projectDomains: ['ours.com', 'ours-alias.net'],
      urls: serp(position ? { [position]: url } : {}),
    });
    const k2Latest = on('shoes b', '2026-03-19T09:00:00.000Z', 9, SHOES);
    const [k2LatestId] = await seed(app, [k2Latest]);
    await seed(app, [
      on('shoes a', '2025-12-01T09:00:00.000Z', 2, SHOES), // before the trend window
      on('shoes a', '2025-12-20T09:00:00.000Z', 11, SHOES),
      on('shoes a', '2026-03-10T09:00:00.000Z', 4, SHOES),
      on('shoes a', '2026-03-18T09:00:00.000Z', 5, SHOES),
      on('shoes a', '2026-03-19T09:00:00.000Z', 3, SHOES),
      { ...k2Latest, checkId: k2LatestId }, // delivered twice: counted once
      on('shoes c', '2026-03-19T09:00:00.000Z', 10, SHOES),
      on('boots a', '2026-03-02T09:00:00.000Z', 15, SHOES), // ranked with another page then
      on('boots a', '2026-03-19T09:00:00.000Z', 20, BOOTS),
      on('boots b', '2026-03-12T09:00:00.000Z', 4, BOOTS),
      on('boots b', '2026-03-19T10:00:00.000Z', 0), // no longer ranking: counts for no page
      on('blog post', '2026-03-18T09:00:00.000Z', 1, POST),
      { projectId, keywordId: ids['blog post']!, at: '2026-03-19T12:00:00.000Z', failedReason: 'Blocked by Google (captcha)' },
    ]);
  });
  afterAll(() => app.close());

  it('groups keywords by the ranking URL of their latest successful check, worst average first', async () => {
    const { status, body } = await get({});
    expect(status).toBe(200);
    expect(body.success).toBe(true);
    // The newest successful check of any keyword (the failure at 12:00 is not one).
    expect(body.lastPagesUpdate).toBe('2026-03-19T10:00:00.000Z');
    expect(body.data.map((p: { url: string }) => p.url)).toEqual([BOOTS, SHOES, POST]);
    const [boots, shoes, post] = body.data;
    expect(shoes).toMatchObject({
      url: SHOES,
      path: '/shoes',
      keywordCount: 3,
      avgPosition: 7.33,
      bestPosition: 3,
      keywords: [
        { keywordId: ids['shoes a'], value: 'shoes a', position: 3 },
        { keywordId: ids['shoes b'], value: 'shoes b', position: 9 },
        { keywordId: ids['shoes c'], value: 'shoes c', position: 10 },
      ],
    });
    expect(boots).toMatchObject({
      path: '/boots',
      keywordCount: 1,
      avgPosition: 20,
      bestPosition: 20,
      keywords: [{ keywordId: ids['boots a'], value: 'boots a', position: 20 }],
    });
    // The alias's subdomain is ours; a failed check after the success does not take the page away.
    expect(post).toMatchObject({ path: '/post', keywordCount: 1, avgPosition: 1, bestPosition: 1 });
  });

  it('gives 14 weekly trend points over the last 90 days, each keyword counted with its latest check of the week', async () => {
    const shoes = (await get({})).body.data[1];
    const weekly = series(WEEKS, { '2025-12-15': [11, 1], '2026-03-02': [15, 1], '2026-03-09': [4, 1], '2026-03-16': [7.33, 3] });
    expect(shoes.avgPositionTrendGranularity).toBe('week');
    expect(shoes.avgPositionTrend).toEqual(weekly);
    expect(shoes.weeklyAvgPositions).toEqual(weekly.map(({ date, ...rest }) => ({ weekStart: date, ...rest })));
  });

  it("switches to 14 daily points when all of a page's history lies within the last 14 days", async () => {
    const [boots, , post] = (await get({})).body.data;
    expect(boots.avgPositionTrendGranularity).toBe('day');
    expect(boots.avgPositionTrend).toEqual(series(DAYS, { '2026-03-12': [4, 1], '2026-03-19': [20, 1] }));
    // The weekly series is there all the same.
    expect(boots.weeklyAvgPositions.slice(-2)).toEqual([
      { weekStart: '2026-03-09', avgPosition: 4, keywordCount: 1 },
      { weekStart: '2026-03-16', avgPosition: 20, keywordCount: 1 },
    ]);
    expect(boots.weeklyAvgPositions).toHaveLength(14);
    expect(post.avgPositionTrend).toEqual(series(DAYS, { '2026-03-18': [1, 1] }));
  });

  it('answers an empty list and a null lastPagesUpdate for a project without checks', async () => {
    const empty = await createProject(app, key, { domain: 'empty.com' }, [{ keywords: ['nothing'], geoCode: 'US', langCode: 'en' }]);
    const { status, body } = await get({ projectId: empty.projectId });
    expect(status).toBe(200);
    expect(body).toEqual({ success: true, data: [], lastPagesUpdate: null });
  });

  it('400 for a missing or malformed projectId', async () => {
    expect((await get({ projectId: undefined })).body).toMatchObject({ message: 'projectId is required' });
    const malformed = await get({ projectId: 'abc' });
    expect(malformed.status).toBe(400);
    expect(malformed.body.message).toBe('projectId must be a 24-character hex id');
  });

  it('404 for another account, 401 anonymous, public once shared', async () => {
    const other = (await app.createAccount()).apiKey;
    expect((await get({}, other)).status).toBe(404);
    expect((await get({}, null)).status).toBe(401);
    await share(app, key, projectId, SETTINGS);
    const anonymous = await get({}, null);
    expect(anonymous.status).toBe(200);
    expect(anonymous.body.data).toHaveLength(3);
  });

  // Last: it changes the project. Its rows stay in the read model; the read leaves them out.
  it('counts a removed keyword for no page and in no trend point', async () => {
    const removal = await app.request('DELETE', '/api/projects/keywords', { key, body: { projectId, keywordIds: [ids['shoes c']] } });
    expect(removal.status).toBe(200);
    const shoes = (await get({})).body.data.find((page: { url: string }) => page.url === SHOES);
    expect(shoes).toMatchObject({ keywordCount: 2, avgPosition: 6 });
    expect(shoes.avgPositionTrend.at(-1)).toEqual({ date: '2026-03-16', avgPosition: 6, keywordCount: 2 });
  });
});
