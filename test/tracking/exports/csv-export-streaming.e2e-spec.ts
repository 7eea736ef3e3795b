import { fullExportKeywordsPerQuery } from '@rank/tracking/exports/full-export-history';
import { MAX_KEYWORDS_PER_PAGE } from '@rank/tracking/exports/keyword-pages';
import type { SeededCheck } from '../../support/seed-checks';
import { startTestApp, TestApp } from '../../support/test-app';
import { addKeywords, createProject, getRaw, seedAndProject, serpWith } from './export-fixtures';

describe('CSV export of a project larger than one page', () => {
  const KEYWORDS = 2 * MAX_KEYWORDS_PER_PAGE + 50;
  let app: TestApp;
  let key: string;
  let projectId: string;
  beforeAll(async () => {
    app = await startTestApp({ clock: { now: () => new Date('2026-03-31T12:00:00.000Z') } });
    ({ apiKey: key } = await app.createAccount());
    projectId = await createProject(app, key, { name: 'Big', domain: 'big.example' });
    const values = Array.from({ length: KEYWORDS }, (_, i) => `kw ${String(i).padStart(4, '0')}`);
    const ids = await addKeywords(app, key, projectId, values);
    const checks: SeededCheck[] = values.flatMap((value, i) => [
      {
        projectId,
        keywordId: ids[value]!,
        at: '2026-03-01T10:00:00.000Z',
        urls: serpWith((i % 40) + 1, `https://big.example/${i}`),
        projectDomains: ['big.example'],
      },
      {
        projectId,
        keywordId: ids[value]!,
        at: '2026-03-02T10:00:00.000Z',
        urls: serpWith((i % 30) + 1, `https://big.example/${i}`),
        projectDomains: ['big.example'],
      },
    ]);
    await seedAndProject(app, checks);
  });
  afterAll(async () => {
    jest.restoreAllMocks();
    await app.close();
  });

  it('asks ClickHouse for the day cells a page of keywords at a time and streams the rows in export order', async () => {
    const query = jest.spyOn(app.running.stores.readStore, 'query');
    const response = await getRaw(app, '/api/projects/export', { projectId, startDate: '2026-03-01', endDate: '2026-03-31' }, key);
    expect(response.status).toBe(200);
    // Streamed: no length known up front, and the body came in more than one piece.
    expect(response.headers.get('transfer-encoding')).toBe('chunked');
    expect(response.headers.get('content-length')).toBeNull();
    expect(response.reads).toBeGreaterThan(1);

    // Two checked days: a page holds every keyword of this project (the page bounds are tested in full-export-history.spec.ts).
    const pageQueries = query.mock.calls.filter(([sql]) => sql.includes('groupArrayInsertAt'));
    expect(fullExportKeywordsPerQuery(2)).toBeGreaterThan(KEYWORDS);
    expect(pageQueries.map(([, params]) => (params!.keywordIds as string[]).length)).toEqual([KEYWORDS]);
    query.mockRestore();

    const rows = response.bytes.toString('utf8').split('\r\n');
    expect(rows).toHaveLength(KEYWORDS + 2);
    expect(rows[0]).toBe('\uFEFFKeyword;SERP;Volume;URL;Change;2026-03-02;2026-03-01');
    // Keyword i ranks (i % 40) + 1 on day 1 and (i % 30) + 1 on day 2; rows across page boundaries stay in order.
    for (const i of [0, 199, 200, 449]) {
      const [first, second] = [(i % 40) + 1, (i % 30) + 1];
      expect(rows[i + 1]).toBe(`kw ${String(i).padStart(4, '0')};${second};;https://big.example/${i};${first - second};${second};${first}`);
    }
    expect(rows[KEYWORDS + 1]).toBe('');
  });

  it('finds the latest check and the one before among hundreds (a year of daily checks)', async () => {
    const historyId = await createProject(app, key, { name: 'History', domain: 'hist.example' });
    const { 'long history': keywordId } = await addKeywords(app, key, historyId, ['long history']);
    const first = Date.parse('2025-06-01T09:00:00.000Z');
    const positionOn = (d: number) => (d % 20) + 1;
    await seedAndProject(
      app,
      Array.from({ length: 300 }, (_, d) => ({
        projectId: historyId,
        keywordId: keywordId!,
        at: new Date(first + d * 86_400_000).toISOString(),
        urls: serpWith(positionOn(d), `https://hist.example/${d}`),
        projectDomains: ['hist.example'],
      })),
    );
    const lastDay = new Date(first + 299 * 86_400_000).toISOString().slice(0, 10);
    const response = await getRaw(app, '/api/projects/export', { projectId: historyId, startDate: lastDay, endDate: lastDay }, key);
    const change = positionOn(298) - positionOn(299);
    expect(response.bytes.toString('utf8').split('\r\n')[1]).toBe(
      `long history;${positionOn(299)};;https://hist.example/299;${change};${positionOn(299)}`,
    );
  });
});
