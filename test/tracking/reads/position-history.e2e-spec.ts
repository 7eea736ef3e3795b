import type { TestApp } from '../../support/test-app';
import { createProject, seed, serp, share, startReadsApp } from './reads-fixture';

const SETTINGS = { domain: 'ours.com', aliases: 'ours-alias.net' };
const OURS = 'https://www.ours.com/coffee';

describe('GET /api/projects/position-history', () => {
  let app: TestApp;
  let key: string;
  let projectId: string;
  let first: string;
  let failed: string;
  let second: string;
  let third: string;

  const get = (keywordUpdateId: string | undefined, as: string | null = key) =>
    app.request('GET', '/api/projects/position-history', { key: as, query: { keywordUpdateId } });

  beforeAll(async () => {
    app = await startReadsApp();
    key = (await app.createAccount()).apiKey;
    const project = await createProject(app, key, SETTINGS, [{ keywords: ['coffee'], geoCode: 'US', langCode: 'en' }]);
    projectId = project.projectId;
    const keywordId = project.ids.coffee!;
    const base = { projectId, keywordId, projectDomains: ['ours.com', 'ours-alias.net'] };
    [, first, failed, second, third] = await seed(app, [
      { ...base, at: '2026-03-09T09:00:00.000Z', failedReason: 'Timed out after 3 retries' }, // before any success
      {
        ...base,
        at: '2026-03-10T09:00:00.000Z',
        urls: serp({
          1: 'https://a.com/1',
          2: 'https://www.b.com/1',
          3: 'https://c.com/1',
          4: 'https://dropped.com/',
          5: 'https://b.com/2',
          40: OURS,
        }),
        aiOverviewUrls: ['https://x.com/cited', 'https://y.com/cited'],
      },
      { ...base, at: '2026-03-10T23:00:00.000Z', failedReason: 'Blocked by Google (captcha)' },
      {
        ...base,
        at: '2026-03-11T09:00:00.000Z',
        urls: serp({
          1: 'https://b.com/1',
          2: 'https://a.com/1',
          3: 'https://c.com/1',
          4: 'https://new.com/',
          5: 'https://b.com/2',
          35: OURS,
        }),
        aiOverviewUrls: ['https://blog.ours.com/cited', 'https://z.com/cited'],
      },
      { ...base, at: '2026-03-12T09:00:00.000Z', urls: serp({ 1: 'https://b.com/1', 7: OURS }) },
    ]);
    // The same check delivered twice: its results must not appear twice.
    await seed(app, [
      {
        ...base,
        at: '2026-03-11T09:00:00.000Z',
        checkId: second,
        urls: serp({
          1: 'https://b.com/1',
          2: 'https://a.com/1',
          3: 'https://c.com/1',
          4: 'https://new.com/',
          5: 'https://b.com/2',
          35: OURS,
        }),
        aiOverviewUrls: ['https://blog.ours.com/cited', 'https://z.com/cited'],
      },
    ]);
  });
  afterAll(() => app.close());

  it('compares a check with the previous successful one by domain: up, down, same, new, and dropped domains', async () => {
    const { status, body } = await get(second);
    expect(status).toBe(200);
    const data = body.data;
    // Seeded without a source, as checks stored before SERP sources were: loaded by the browser.
    expect(data).toMatchObject({
      keywordValue: 'coffee',
      date: '2026-03-11T09:00:00.000Z',
      status: 'success',
      failureReason: null,
      source: 'browser',
      hasPreviousData: true,
    });
    expect(data.keywordId).toHaveLength(24);
    // Top 30 plus our own result at 35.
    expect(data.resultList).toHaveLength(31);
    expect(data.resultList.slice(0, 5)).toEqual([
      {
        position: 1,
        title: 'Title of https://b.com/1',
        domain: 'b.com',
        url: 'https://b.com/1',
        previousPosition: 2,
        movement: { type: 'up', value: 1 },
      },
      {
        position: 2,
        title: 'Title of https://a.com/1',
        domain: 'a.com',
        url: 'https://a.com/1',
        previousPosition: 1,
        movement: { type: 'down', value: 1 },
      },
      {
        position: 3,
        title: 'Title of https://c.com/1',
        domain: 'c.com',
        url: 'https://c.com/1',
        previousPosition: 3,
        movement: { type: 'same', value: 0 },
      },
      {
        position: 4,
        title: 'Title of https://new.com/',
        domain: 'new.com',
        url: 'https://new.com/',
        previousPosition: null,
        movement: { type: 'new', value: null },
      },
      // b.com's second result, against its second result of the day before.
      {
        position: 5,
        title: 'Title of https://b.com/2',
        domain: 'b.com',
        url: 'https://b.com/2',
        previousPosition: 5,
        movement: { type: 'same', value: 0 },
      },
    ]);
    expect(data.resultList[30]).toEqual({
      position: 35,
      title: `Title of ${OURS}`,
      domain: 'ours.com',
      url: OURS,
      previousPosition: 40,
      movement: { type: 'up', value: 5 },
    });
    expect(data.resultList.map((r: { position: number }) => r.position)).toEqual([...Array.from({ length: 30 }, (_, i) => i + 1), 35]);
    expect(data.droppedDomains).toEqual([{ domain: 'dropped.com', previousPosition: 4, movement: { type: 'gone', value: null } }]);
    expect(data.aiOverviewResults).toEqual([
      {
        position: 1,
        title: 'Title of https://blog.ours.com/cited',
        domain: 'blog.ours.com',
        url: 'https://blog.ours.com/cited',
        isOurDomain: true,
      },
      { position: 2, title: 'Title of https://z.com/cited', domain: 'z.com', url: 'https://z.com/cited', isOurDomain: false },
    ]);
    expect(data.aiContainsOurDomain).toBe(true);
  });

  it('a first check has no previous data: everything is new, nothing dropped, our result beyond 30 included', async () => {
    const { body } = await get(first);
    expect(body.data.hasPreviousData).toBe(false);
    expect(body.data.droppedDomains).toEqual([]);
    expect(new Set(body.data.resultList.map((r: { movement: { type: string } }) => r.movement.type))).toEqual(new Set(['new']));
    expect(body.data.resultList.at(-1)).toMatchObject({ position: 40, domain: 'ours.com', previousPosition: null });
    expect(body.data.aiOverviewResults.map((r: { isOurDomain: boolean }) => r.isOurDomain)).toEqual([false, false]);
    expect(body.data.aiContainsOurDomain).toBe(false);
  });

  it('shows exactly the top 30 when we rank inside it, and a check without AI Overview has none', async () => {
    const { body } = await get(third);
    expect(body.data.resultList).toHaveLength(30);
    expect(body.data.resultList[6]).toMatchObject({
      position: 7,
      domain: 'ours.com',
      previousPosition: 35,
      movement: { type: 'up', value: 28 },
    });
    expect(body.data.resultList[1]).toMatchObject({
      domain: 'filler2.example',
      previousPosition: null,
      movement: { type: 'new', value: null },
    });
    expect(body.data.resultList[7]).toMatchObject({ domain: 'filler8.example', previousPosition: 8, movement: { type: 'same', value: 0 } });
    // a.com, c.com, new.com and the filler our page displaced are gone; b.com lost its second result but is still here.
    expect(body.data.droppedDomains.map((d: { domain: string; previousPosition: number }) => [d.domain, d.previousPosition])).toEqual([
      ['a.com', 2],
      ['c.com', 3],
      ['new.com', 4],
      ['filler7.example', 7],
    ]);
    expect(body.data.aiOverviewResults).toEqual([]);
    expect(body.data.aiContainsOurDomain).toBe(false);
  });

  it('a failed check answers 200 with status failed, its reason and empty lists', async () => {
    const { status, body } = await get(failed);
    expect(status).toBe(200);
    expect(body.data).toEqual({
      keywordId: expect.any(String),
      keywordValue: 'coffee',
      date: '2026-03-10T23:00:00.000Z',
      status: 'failed',
      failureReason: 'Blocked by Google (captcha)',
      source: null,
      resultList: [],
      droppedDomains: [],
      hasPreviousData: false,
      aiOverviewResults: [],
      aiContainsOurDomain: false,
    });
  });

  it('400 for a missing or malformed id, 404 for an unknown one', async () => {
    expect((await get(undefined)).body.message).toMatch(/keywordUpdateId is required/);
    const malformed = await get('xyz');
    expect(malformed.status).toBe(400);
    expect(malformed.body.message).toMatch(/keywordUpdateId must be a 24-character hex id/);
    const unknown = await get('0123456789abcdef01234567');
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe('Keyword update not found');
  });

  it('404 once the keyword has been removed from the project', async () => {
    const added = await app.request('POST', '/api/projects/keywords', {
      key,
      body: { projectId, keywords: ['tea'], geoCode: 'US', langCode: 'en' },
    });
    expect(added.status).toBe(200);
    const keywords = (await app.request('GET', `/api/projects/${projectId}`, { key })).body.project.keywords as {
      _id: string;
      keyword: string;
    }[];
    const tea = keywords.find((k) => k.keyword === 'tea')!._id;
    const [teaCheck] = await seed(app, [
      { projectId, keywordId: tea, at: '2026-03-12T09:00:00.000Z', urls: serp({ 1: OURS }), projectDomains: ['ours.com'] },
    ]);
    expect((await get(teaCheck)).status).toBe(200);
    await app.request('DELETE', '/api/projects/keywords', { key, body: { projectId, keywordIds: [tea] } });
    expect((await get(teaCheck)).status).toBe(404);
  });

  it('answers another account exactly as it answers an id that does not exist, 401 anonymous, public once shared and not once its owner is blocked', async () => {
    const other = (await app.createAccount()).apiKey;
    const notYours = await get(second, other);
    const unknown = await get('0123456789abcdef01234567', other);
    expect(notYours.status).toBe(404);
    expect(notYours.body).toEqual(unknown.body);
    expect(notYours.body).toEqual({ success: false, message: 'Keyword update not found' });
    const anonymousOfPrivate = await get(second, null);
    expect(anonymousOfPrivate.status).toBe(401);
    expect((await get('0123456789abcdef01234567', null)).body).toEqual(anonymousOfPrivate.body);
    await share(app, key, projectId, SETTINGS);
    const anonymous = await get(second, null);
    expect(anonymous.status).toBe(200);
    expect(anonymous.body.data.resultList).toHaveLength(31);

    const ownerId = key.slice(key.lastIndexOf('_') + 1); // a key ends with its account's id
    expect((await app.admin('PATCH', `/admin/accounts/${ownerId}`, { status: 'blocked' })).status).toBe(200);
    expect((await get(second, null)).status).toBe(401);
    expect((await get(second, other)).body).toEqual(unknown.body);
    expect((await app.request('GET', `/api/projects/${projectId}`, { key: null })).status).toBe(401);
    expect((await app.request('GET', `/api/projects/${projectId}`, { key: other })).status).toBe(404);
  });
});
