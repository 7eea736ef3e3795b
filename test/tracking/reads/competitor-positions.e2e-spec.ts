import type { TestApp } from '../../support/test-app';
import { createProject, seed, serp, share, startReadsApp } from './reads-fixture';

const SETTINGS = { domain: 'ours.com' };

describe('GET /api/projects/competitor-positions', () => {
  let app: TestApp;
  let key: string;
  let projectId: string;
  let ids: Record<string, string>;
  const check: Record<string, string> = {};

  const get = (query: Record<string, string | undefined>, as: string | null = key) =>
    app.request('GET', '/api/projects/competitor-positions', { key: as, query: { projectId, competitorDomain: 'rival.com', ...query } });
  const positionsOf = (body: any, keywordId: string) =>
    body.keywordHistory[keywordId].updates.map((u: any) => [u.date, u.status, u.position?.position ?? null]);

  beforeAll(async () => {
    app = await startReadsApp();
    key = (await app.createAccount()).apiKey;
    ({ projectId, ids } = await createProject(app, key, SETTINGS, [
      { keywords: ['espresso', 'latte', 'mocha'], geoCode: 'US', langCode: 'en' },
    ]));
    const on = (keyword: string, at: string, placed: Record<number, string> | null, extra: Record<string, unknown> = {}) => ({
      projectId,
      keywordId: ids[keyword]!,
      at,
      projectDomains: ['ours.com'],
      ...(placed ? { urls: serp(placed) } : { failedReason: 'Blocked by Google (captcha)' }),
      ...extra,
    });
    const names = ['feb', 'morning', 'evening', 'night', 'deep', 'failedDay', 'lookalikes', 'latte', 'latteShop'];
    const seeded = await seed(app, [
      on('espresso', '2026-02-01T09:00:00.000Z', { 2: 'https://rival.com/old' }), // before the default window
      on('espresso', '2026-03-16T09:00:00.000Z', { 3: 'https://shop.rival.com/espresso', 6: 'https://www.rival.com/a' }),
      on('espresso', '2026-03-16T18:00:00.000Z', { 8: 'https://www.rival.com/a', 12: 'https://rival.com/b' }), // the day's latest success wins
      on('espresso', '2026-03-16T20:00:00.000Z', null), // a later failure does not
      on('espresso', '2026-03-17T09:00:00.000Z', { 45: 'https://rival.com/deep' }), // beyond the top 30
      on('espresso', '2026-03-18T09:00:00.000Z', null), // the day's only check failed
      on('espresso', '2026-03-19T09:00:00.000Z', { 2: 'https://rival.com.evil.net/', 4: 'https://notrival.com/' }),
      on('latte', '2026-03-16T07:00:00.000Z', { 1: 'https://rival.com/latte' }, { aiOverviewUrls: ['https://rival.com/latte'] }),
      on('latte', '2026-03-17T07:00:00.000Z', { 5: 'https://shop.rival.com/latte', 9: 'https://rival.com/latte' }),
    ]);
    names.forEach((name, i) => (check[name] = seeded[i]!));
  });
  afterAll(() => app.close());

  it("gives one update per keyword and day with the competitor's best top-30 result, 0 when absent", async () => {
    const { status, body } = await get({ competitorDomain: 'https://www.Rival.com/x' });
    expect(status).toBe(200);
    expect(body.success).toBe(true);
    expect(body.competitorDomain).toBe('rival.com');
    expect(Object.keys(body.keywordHistory)).toEqual([ids.espresso, ids.latte, ids.mocha]);
    const espresso = body.keywordHistory[ids.espresso!];
    expect(espresso.keyword).toEqual({ _id: ids.espresso, value: 'espresso', geoCode: 'US', langCode: 'en' });
    expect(espresso.updates).toEqual([
      {
        _id: check.evening,
        date: '2026-03-16T18:00:00.000Z',
        status: 'success',
        position: { position: 8, url: 'https://www.rival.com/a', title: 'Title of https://www.rival.com/a', domain: 'rival.com' },
        aiSerpId: null,
      },
      {
        _id: check.deep,
        date: '2026-03-17T09:00:00.000Z',
        status: 'success',
        position: { position: 0, url: '', title: '', domain: '' },
        aiSerpId: null,
      },
      { _id: check.failedDay, date: '2026-03-18T09:00:00.000Z', status: 'failed', position: null, aiSerpId: null },
      // rival.com.evil.net and notrival.com are other sites.
      {
        _id: check.lookalikes,
        date: '2026-03-19T09:00:00.000Z',
        status: 'success',
        position: { position: 0, url: '', title: '', domain: '' },
        aiSerpId: null,
      },
    ]);
    expect(body.keywordHistory[ids.latte!].updates[0]).toEqual({
      _id: check.latte,
      date: '2026-03-16T07:00:00.000Z',
      status: 'success',
      position: { position: 1, url: 'https://rival.com/latte', title: 'Title of https://rival.com/latte', domain: 'rival.com' },
      aiSerpId: check.latte,
    });
    expect(body.keywordHistory[ids.mocha!].updates).toEqual([]);
  });

  it('counts a subdomain of the competitor as the competitor, and only the subdomain when asked for it', async () => {
    const { body } = await get({ startDate: '2026-03-17', endDate: '2026-03-17' });
    expect(body.keywordHistory[ids.latte!].updates).toEqual([
      {
        _id: check.latteShop,
        date: '2026-03-17T07:00:00.000Z',
        status: 'success',
        position: {
          position: 5,
          url: 'https://shop.rival.com/latte',
          title: 'Title of https://shop.rival.com/latte',
          domain: 'shop.rival.com',
        },
        aiSerpId: null,
      },
    ]);
    const shop = await get({ competitorDomain: 'shop.rival.com', startDate: '2026-03-16', endDate: '2026-03-17' });
    expect(positionsOf(shop.body, ids.latte!)).toEqual([
      ['2026-03-16T07:00:00.000Z', 'success', 0],
      ['2026-03-17T07:00:00.000Z', 'success', 5],
    ]);
  });

  it('defaults to the last 30 days and takes a startDate/endDate window', async () => {
    const feb = await get({ startDate: '2026-02-01', endDate: '2026-02-01' });
    expect(positionsOf(feb.body, ids.espresso!)).toEqual([['2026-02-01T09:00:00.000Z', 'success', 2]]);
    expect(feb.body.keywordHistory[ids.latte!].updates).toEqual([]);
    const defaults = await get({});
    expect(positionsOf(defaults.body, ids.espresso!).map((u: string[]) => u[0].slice(0, 10))).toEqual([
      '2026-03-16',
      '2026-03-17',
      '2026-03-18',
      '2026-03-19',
    ]);
    // From the first day the store keeps (before, 1970-01-01 was a 500).
    const all = await get({ startDate: '1970-01-01', endDate: '2026-03-16' });
    expect({ status: all.status, first: positionsOf(all.body, ids.espresso!)[0] }).toEqual({
      status: 200,
      first: ['2026-02-01T09:00:00.000Z', 'success', 2],
    });
  });

  it('uses the best of several competitor results in a check', async () => {
    const { body } = await get({ startDate: '2026-03-16', endDate: '2026-03-16' });
    // The evening check has rival.com at 8 and 12 (8 wins); the morning check (shop at 3) is not the day's entry.
    expect(positionsOf(body, ids.espresso!)).toEqual([['2026-03-16T18:00:00.000Z', 'success', 8]]);
  });

  it('refuses bad input with 400 naming the field', async () => {
    const cases: [Record<string, string | undefined>, RegExp][] = [
      [{ competitorDomain: undefined }, /competitorDomain is required/],
      [{ competitorDomain: 'not a domain!!' }, /competitorDomain must be a domain name/],
      // Longer than DNS allows: it was answered (and echoed) as a domain.
      [{ competitorDomain: `${'a'.repeat(7_000)}.com` }, /competitorDomain must be a domain name/],
      [{ projectId: undefined }, /projectId is required/],
      [{ projectId: '123' }, /projectId must be a 24-character hex id/],
      [{ startDate: '2026-13-01' }, /startDate must be a real calendar date/],
      [{ startDate: '2026-03-02', endDate: '2026-03-01' }, /startDate .* must not be after endDate/],
    ];
    for (const [query, message] of cases) {
      const response = await get(query);
      expect([query, response.status]).toEqual([query, 400]);
      expect(response.body.message).toMatch(message);
    }
  });

  it('404 for another account, 401 anonymous, public once shared', async () => {
    const other = (await app.createAccount()).apiKey;
    expect((await get({}, other)).status).toBe(404);
    expect((await get({}, null)).status).toBe(401);
    await share(app, key, projectId, SETTINGS);
    const anonymous = await get({}, null);
    expect(anonymous.status).toBe(200);
    expect(anonymous.body.keywordHistory[ids.espresso!].updates).toHaveLength(4);
  });
});
