import { startTestApp, TestApp } from '../../support/test-app';
import { addKeywords, createProject, getRaw, seedAndProject, serpWith } from './export-fixtures';

const BOM = '\uFEFF';
const lines = (...rows: string[]) => Buffer.from(BOM + rows.map((r) => `${r}\r\n`).join(''), 'utf8');
const exportOf = (app: TestApp, query: Record<string, string | undefined>, key?: string) => getRaw(app, '/api/projects/export', query, key);

describe('CSV export (GET /api/projects/export)', () => {
  let app: TestApp;
  let key: string;
  let projectId: string;
  beforeAll(async () => {
    // The default window ends today by this clock: 2026-01-11 .. 2026-02-10.
    app = await startTestApp({ clock: { now: () => new Date('2026-02-10T12:00:00.000Z') } });
    ({ apiKey: key } = await app.createAccount());
    projectId = await createProject(app, key, { name: 'Shop', domain: 'shop.example' });
    const id = await addKeywords(app, key, projectId, ['alpha', 'beta; "quoted"', 'gamma', '=cmd']);
    const own = ['shop.example'];
    await seedAndProject(app, [
      // Before the default window: not a column, but the check before alpha's 2026-02-01 one.
      {
        projectId,
        keywordId: id.alpha!,
        at: '2025-12-01T08:00:00.000Z',
        urls: serpWith(9, 'https://shop.example/old'),
        projectDomains: own,
      },
      {
        projectId,
        keywordId: id.alpha!,
        at: '2026-02-01T08:00:00.000Z',
        urls: serpWith(5, 'https://shop.example/alpha'),
        projectDomains: own,
      },
      // Two checks on one day: the later one is the day's cell; the earlier one is "the previous check".
      {
        projectId,
        keywordId: id.alpha!,
        at: '2026-02-03T10:00:00.000Z',
        urls: serpWith(3, 'https://shop.example/alpha'),
        projectDomains: own,
      },
      {
        projectId,
        keywordId: id.alpha!,
        at: '2026-02-03T15:00:00.000Z',
        urls: serpWith(2, 'https://shop.example/alpha'),
        projectDomains: own,
      },
      {
        projectId,
        keywordId: id['beta; "quoted"']!,
        at: '2026-02-01T09:00:00.000Z',
        urls: serpWith(4, 'https://shop.example/beta'),
        projectDomains: own,
      },
      {
        projectId,
        keywordId: id['beta; "quoted"']!,
        at: '2026-02-03T09:00:00.000Z',
        urls: serpWith(3, 'https://elsewhere.example/'),
        projectDomains: own,
      },
      // A failed check is no position: not a 0, not a day column when it is the day's only check.
      { projectId, keywordId: id.gamma!, at: '2026-02-01T10:00:00.000Z', failedReason: 'Blocked by Google' },
      { projectId, keywordId: id.gamma!, at: '2026-02-02T10:00:00.000Z', urls: serpWith(3, 'https://shop.example/g'), projectDomains: own },
      {
        projectId,
        keywordId: id.gamma!,
        at: '2026-02-03T10:00:00.000Z',
        urls: serpWith(8, 'https://shop.example/g;x'),
        projectDomains: own,
      },
      { projectId, keywordId: id.gamma!, at: '2026-02-04T10:00:00.000Z', failedReason: 'Timeout' },
      // After a custom window's end.
      {
        projectId,
        keywordId: id.gamma!,
        at: '2026-02-09T10:00:00.000Z',
        urls: serpWith(1, 'https://shop.example/g;x'),
        projectDomains: own,
      },
    ]);
  });
  afterAll(async () => {
    await app.close();
  });

  it("full: BOM, `;`, day columns newest first, the day's latest check, 0, empty cells, quoting and Change", async () => {
    const response = await exportOf(app, { projectId, startDate: '2026-02-01', endDate: '2026-02-08' }, key);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(response.headers.get('content-disposition')).toBe('attachment; filename="shop.example_full_2026-02-01_2026-02-08.csv"');
    expect(response.bytes).toEqual(
      lines(
        'Keyword;SERP;Volume;URL;Change;2026-02-03;2026-02-02;2026-02-01',
        "'=cmd;;;;;;;",
        'alpha;2;;https://shop.example/alpha;1;2;;5',
        '"beta; ""quoted""";0;;;;0;;4',
        'gamma;8;;"https://shop.example/g;x";-5;8;3;',
      ),
    );
  });

  it("full: SERP, URL and Change are as of the window's last day, and only its days are columns", async () => {
    const response = await exportOf(app, { projectId, format: 'full', startDate: '2026-02-02', endDate: '2026-02-02' }, key);
    expect(response.bytes).toEqual(
      lines(
        'Keyword;SERP;Volume;URL;Change;2026-02-02',
        "'=cmd;;;;;",
        'alpha;5;;https://shop.example/alpha;4;',
        '"beta; ""quoted""";4;;https://shop.example/beta;;',
        'gamma;3;;https://shop.example/g;;3',
      ),
    );
  });

  it('summary: current, best, worst and average over the days it ranked, change, checked and not-ranking days, URL', async () => {
    const response = await exportOf(app, { projectId, format: 'summary', startDate: '2026-02-01', endDate: '2026-02-08' }, key);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(response.headers.get('content-disposition')).toBe('attachment; filename="shop.example_summary_2026-02-01_2026-02-08.csv"');
    expect(response.bytes).toEqual(
      lines(
        'Keyword;Current;Best;Worst;Average;Change;Checked days;Days not ranking;URL',
        "'=cmd;;;;;;0;0;",
        'alpha;2;2;5;3.5;1;2;0;https://shop.example/alpha',
        '"beta; ""quoted""";0;4;4;4.0;;2;1;',
        'gamma;8;3;8;5.5;-5;2;0;"https://shop.example/g;x"',
      ),
    );
  });

  it('defaults to the full format over the last 30 days by the clock', async () => {
    const response = await exportOf(app, { projectId }, key);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-disposition')).toBe('attachment; filename="shop.example_full_2026-01-11_2026-02-10.csv"');
    expect(response.bytes.toString('utf8').split('\r\n')[0]).toBe(
      `${BOM}Keyword;SERP;Volume;URL;Change;2026-02-09;2026-02-03;2026-02-02;2026-02-01`,
    );
    expect(response.bytes.toString('utf8')).toContain('\r\ngamma;1;;"https://shop.example/g;x";7;1;8;3;\r\n');
    // endDate alone: the 30 days before it.
    const before = await exportOf(app, { projectId, endDate: '2026-01-31' }, key);
    expect(before.headers.get('content-disposition')).toBe('attachment; filename="shop.example_full_2026-01-01_2026-01-31.csv"');
    expect(before.bytes.toString('utf8').split('\r\n')[0]).toBe(`${BOM}Keyword;SERP;Volume;URL;Change`);
  });

  it.each([
    [{ format: 'xml' }, /format must be one of the following values: full, summary/],
    [{ startDate: '2026-02-30' }, /startDate must be a real calendar date as YYYY-MM-DD/],
    [{ endDate: '01/02/2026' }, /endDate must be a real calendar date as YYYY-MM-DD/],
    [{ startDate: '2026-02-05', endDate: '2026-02-01' }, /startDate \(2026-02-05\) must not be after endDate \(2026-02-01\)/],
    [{ projectId: 'nope' }, /projectId must be a 24-character hex id/],
    [{ projectId: undefined }, /projectId/],
  ])('answers 400 in JSON naming the field for %p', async (query, message) => {
    const response = await app.request('GET', '/api/projects/export', { key, query: { projectId, ...query } });
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toMatch(/application\/json/);
    expect(response.body.message).toMatch(message);
  });

  it("is 404 for another account's project, 401 without a key, and public once the project is shared", async () => {
    const { apiKey: otherKey } = await app.createAccount();
    expect((await app.request('GET', '/api/projects/export', { key: otherKey, query: { projectId } })).status).toBe(404);
    expect((await app.request('GET', '/api/projects/export', { query: { projectId } })).status).toBe(401);

    const sharedId = await createProject(app, key, { name: 'Open', domain: 'open.example', shared: true });
    const anonymous = await exportOf(app, { projectId: sharedId, format: 'summary' });
    expect(anonymous.status).toBe(200);
    expect(anonymous.bytes).toEqual(lines('Keyword;Current;Best;Worst;Average;Change;Checked days;Days not ranking;URL'));
    expect((await app.request('GET', '/api/projects/export', { key: otherKey, query: { projectId: sharedId } })).status).toBe(200);
  });

  it('is in the OpenAPI document as text/csv', async () => {
    const doc = (await app.request('GET', '/api/openapi.json')).body;
    const get = doc.paths['/api/projects/export'].get;
    expect(get.responses['200'].content['text/csv'].schema).toEqual({ type: 'string' });
    expect(get.parameters.map((p: { name: string }) => p.name).sort()).toEqual(['endDate', 'format', 'projectId', 'startDate']);
  });

  it('is not fooled by a replayed check that ClickHouse has not merged away yet', async () => {
    const expected = (await exportOf(app, { projectId, startDate: '2026-02-01', endDate: '2026-02-08' }, key)).bytes;
    const store = app.running.stores.readStore;
    const rows = await store.query<Record<string, unknown>>(
      'SELECT * FROM keyword_updates WHERE project_id = {projectId:String} AND status = {status:String}',
      { projectId, status: 'success' },
    );
    await store.insert('keyword_updates', rows);
    const [{ copies }] = await store.query<{ copies: string }>(
      'SELECT count() AS copies FROM keyword_updates WHERE project_id = {projectId:String}',
      { projectId },
    );
    expect(Number(copies)).toBeGreaterThan(rows.length);
    expect((await exportOf(app, { projectId, startDate: '2026-02-01', endDate: '2026-02-08' }, key)).bytes).toEqual(expected);
    expect(
      (await exportOf(app, { projectId, format: 'summary', startDate: '2026-02-01', endDate: '2026-02-08' }, key)).bytes.toString('utf8'),
    ).toContain('\r\nalpha;2;2;5;3.5;1;2;0;https://shop.example/alpha\r\n');
  });
});
