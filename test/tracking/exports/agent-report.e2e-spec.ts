import { startTestApp, TestApp } from '../../support/test-app';
import { addKeywords, createProject, getRaw, seedAndProject } from './export-fixtures';

const reportOf = async (app: TestApp, projectId: string, key?: string) => {
  const response = await getRaw(app, '/api/projects/export-agent', { projectId }, key);
  return { ...response, text: response.bytes.toString('utf8') };
};

describe('Markdown report (GET /api/projects/export-agent)', () => {
  let app: TestApp;
  let key: string;
  let projectId: string;
  beforeAll(async () => {
    app = await startTestApp({ clock: { now: () => new Date('2026-02-10T12:00:00.000Z') } });
    ({ apiKey: key } = await app.createAccount());
    projectId = await createProject(app, key, { name: 'Shop', domain: 'shop.example', aliases: 'shop-alias.example', serpTop: 100 });
    const updated = await app.request('PUT', '/api/projects', {
      key,
      body: {
        _id: projectId,
        name: 'Shop',
        domain: 'shop.example',
        aliases: 'shop-alias.example',
        serpTop: 100,
        competitors: ['rival.example', 'other.example'],
      },
    });
    expect(updated.status).toBe(200);
    const id = await addKeywords(app, key, projectId, ['running shoes', 'trail | shoes', 'boots', 'sandals']);
    const own = ['shop.example', 'shop-alias.example'];
    const filler = (n: number) => Array.from({ length: n }, (_, i) => `https://filler${i + 1}.example/`);
    await seedAndProject(app, [
      {
        projectId,
        keywordId: id['running shoes']!,
        at: '2026-02-01T10:00:00.000Z',
        urls: [...filler(6), 'https://shop.example/run'],
        projectDomains: own,
      },
      {
        projectId,
        keywordId: id['running shoes']!,
        at: '2026-02-03T10:00:00.000Z',
        projectDomains: own,
        urls: ['https://blog.rival.example/a', 'https://filler1.example/', 'https://shop.example/run', 'https://rival.example/b'],
      },
      {
        projectId,
        keywordId: id['trail | shoes']!,
        at: '2026-02-01T10:00:00.000Z',
        urls: [...filler(1), 'https://shop.example/trail'],
        projectDomains: own,
      },
      {
        projectId,
        keywordId: id['trail | shoes']!,
        at: '2026-02-03T11:00:00.000Z',
        projectDomains: own,
        urls: [...filler(4), 'https://shop-alias.example/trail_1', 'https://rival.example/t'],
      },
      {
        projectId,
        keywordId: id.boots!,
        at: '2026-02-02T10:00:00.000Z',
        urls: [...filler(3), 'https://shop.example/boots'],
        projectDomains: own,
      },
      { projectId, keywordId: id.boots!, at: '2026-02-03T12:00:00.000Z', urls: filler(2), projectDomains: own },
      { projectId, keywordId: id.sandals!, at: '2026-02-03T12:00:00.000Z', failedReason: 'Blocked by Google' },
    ]);
  });
  afterAll(async () => {
    await app.close();
  });

  it('reports project, rankings (totals, movers, keyword table), traffic, competitors and performance, the same bytes each time', async () => {
    const report = await reportOf(app, projectId, key);
    expect(report.status).toBe(200);
    expect(report.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
    expect(report.text).toBe(`# Rank-tracking report: Shop

## Project

| Setting | Value |
|---|---|
| Name | Shop |
| Domain | shop.example |
| Aliases | shop-alias.example |
| Competitors | rival.example, other.example |
| Checks | daily, at 12:00 UTC |
| SERP depth | top 100 |
| Shared publicly | no |
| Created | 2026-02-10 |

## Rankings

- Keywords tracked: 4
- Keywords with a successful check: 3
- Latest check: 2026-02-03
- Ranking in the top 3: 1
- Ranking in the top 10: 2
- Ranking in the top 100: 2
- Not ranking (not within the top 100 checked): 1
- Average position (ranking keywords only): 4.0

### Biggest movers up (latest check vs the one before)

| Keyword | Country | Language | Position | Change |
|---|---|---|---:|---:|
| running shoes | US | en | 3 | +4 |

### Biggest movers down (latest check vs the one before)

| Keyword | Country | Language | Position | Change |
|---|---|---|---:|---:|
| trail \\| shoes | US | en | 5 | -3 |

### Keywords

Position: the latest successful check (0: not within the top 100 checked; –: no successful check yet). Change: places gained since the check before (positive is better; – when either check did not rank).

| Keyword | Country | Language | Position | Change | URL | Checked |
|---|---|---|---:|---:|---|---|
| boots | US | en | 0 | – | – | 2026-02-03 |
| running shoes | US | en | 3 | +4 | <https://shop.example/run> | 2026-02-03 |
| sandals | US | en | – | – | – | – |
| trail \\| shoes | US | en | 5 | -3 | <https://shop-alias.example/trail_1> | 2026-02-03 |

## Traffic

No traffic data is stored for shop.example yet: it is fetched in the background when the project is created or changed, from the traffic provider when one is configured.

## Competitors

Positions on the latest check day, 2026-02-03, over the 3 keyword(s) checked that day (each keyword's latest successful check of the day). A domain ranks for a keyword when it or one of its subdomains is an organic result within the top 100; the average is over the keywords it ranks for.

| Domain | Keywords ranking | Top 3 | Top 10 | Average position |
|---|---:|---:|---:|---:|
| shop.example (this project) | 2 | 1 | 2 | 4.0 |
| rival.example | 2 | 1 | 2 | 3.5 |
| other.example | 0 | 0 | 0 | – |

No traffic data is stored for this project or its competitors yet.

## Performance

No page-performance data (PageSpeed, Core Web Vitals) is stored for this project yet: the home page is measured in the background when the project is created, and its ranking pages after their checks.
`);
    expect((await reportOf(app, projectId, key)).bytes).toEqual(report.bytes);
  });

  it('says plainly that no data exists for a project without keywords or checks', async () => {
    const emptyId = await createProject(app, key, { name: 'Empty', domain: 'empty.example' });
    const empty = await reportOf(app, emptyId, key);
    expect(empty.status).toBe(200);
    expect(empty.text).toContain(
      '## Rankings\n\nNo keywords are tracked yet, so no ranking data exists.\n\n## Traffic\n\nNo traffic data is stored for empty.example yet',
    );
    expect(empty.text).toContain(
      '## Competitors\n\nNo competitor domains are tracked for this project.\n\n## Performance\n\nNo page-performance data (PageSpeed, Core Web Vitals) is stored',
    );

    await app.request('PUT', '/api/projects', {
      key,
      body: { _id: emptyId, name: 'Empty', domain: 'empty.example', competitors: ['rival.example'] },
    });
    await addKeywords(app, key, emptyId, ['unchecked']);
    const unchecked = (await reportOf(app, emptyId, key)).text;
    expect(unchecked).toContain(
      '- Keywords tracked: 1\n\nNo ranking data exists yet: none of the keywords has had a successful check.\n\n### Keywords',
    );
    expect(unchecked).toContain('| unchecked | US | en | – | – | – | – |\n');
    expect(unchecked).toContain(
      '## Competitors\n\nTracked competitors: rival.example. No ranking data exists yet for them: no keyword has had a successful check.',
    );
  });

  it('counts competitors and the project only within the depth it names, after the depth went from 100 to 50', async () => {
    const deep = await createProject(app, key, { name: 'Deep', domain: 'deep.example', serpTop: 100 });
    const settings = { _id: deep, name: 'Deep', domain: 'deep.example', competitors: ['near.example', 'far.example'] };
    expect((await app.request('PUT', '/api/projects', { key, body: { ...settings, serpTop: 100 } })).status).toBe(200);
    const id = await addKeywords(app, key, deep, ['deep shoes']);
    const urls = Array.from({ length: 80 }, (_, i) => `https://filler${i + 1}.example/`);
    urls[4] = 'https://near.example/a';
    urls[56] = 'https://far.example/b';
    urls[78] = 'https://deep.example/c';
    await seedAndProject(app, [
      { projectId: deep, keywordId: id['deep shoes']!, at: '2026-02-09T10:00:00.000Z', urls, projectDomains: ['deep.example'] },
    ]);
    expect((await app.request('PUT', '/api/projects', { key, body: { ...settings, serpTop: 50 } })).status).toBe(200);

    const { text } = await reportOf(app, deep, key);
    expect(text).toContain('within the top 50');
    // Before, far.example at 57 and the project at 79 counted as ranking "within the top 50".
    expect(text).toContain('| deep.example (this project) | 0 | 0 | 0 | – |');
    expect(text).toContain('| near.example | 1 | 0 | 1 | 5.0 |');
    expect(text).toContain('| far.example | 0 | 0 | 0 | – |');
  });

  it("is 404 for another account's project, 401 without a key, public when shared, and documented as text/markdown", async () => {
    const { apiKey: otherKey } = await app.createAccount();
    expect((await reportOf(app, projectId, otherKey)).status).toBe(404);
    expect((await reportOf(app, projectId)).status).toBe(401);
    const badId = await app.request('GET', '/api/projects/export-agent', { key, query: { projectId: 'x' } });
    expect(badId.status).toBe(400);
    expect(badId.body.message).toMatch(/projectId must be a 24-character hex id/);

    const sharedId = await createProject(app, key, { name: 'Open', domain: 'open.example', shared: true });
    const anonymous = await reportOf(app, sharedId);
    expect(anonymous.status).toBe(200);
    expect(anonymous.text).toMatch(/^# Rank-tracking report: Open\n/);
    expect((await reportOf(app, sharedId, otherKey)).status).toBe(200);

    const doc = (await app.request('GET', '/api/openapi.json')).body;
    expect(doc.paths['/api/projects/export-agent'].get.responses['200'].content['text/markdown'].schema).toEqual({ type: 'string' });
  });
});
