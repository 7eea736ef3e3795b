import { RankingHistoryReader } from '@rank/tracking/exports/ranking-history.reader';
import type { SeededCheck } from '../../support/seed-checks';
import { startTestApp, TestApp } from '../../support/test-app';
import { addKeywords, createProject, getRaw, seedAndProject, serpWith } from './export-fixtures';

/**
 * The full CSV reads its day columns first and the day cells after, while checks keep landing. A check
 * on a day that had none yet, landing in between, belongs to no column: the export leaves it out and
 * matches its header. It used to be a "stray" cell that failed the export after the header had gone
 * out, so the download broke off.
 */
describe('full CSV export while a check lands on a new day', () => {
  let app: TestApp;
  afterAll(async () => {
    jest.restoreAllMocks();
    await app.close();
  });

  it('answers the days of its header in full; the next export has the new day', async () => {
    app = await startTestApp({ clock: { now: () => new Date('2026-03-31T12:00:00.000Z') } });
    const { apiKey: key } = await app.createAccount();
    const projectId = await createProject(app, key, { name: 'Shop', domain: 'shop.example' });
    const ids = await addKeywords(app, key, projectId, ['red shoes', 'blue shoes']);
    const check = (keyword: string, at: string, position: number): SeededCheck => ({
      projectId,
      keywordId: ids[keyword]!,
      at,
      urls: serpWith(position, `https://shop.example/${keyword.replace(' ', '-')}`),
      projectDomains: ['shop.example'],
    });
    await seedAndProject(app, [
      check('red shoes', '2026-03-01T10:00:00.000Z', 4),
      check('red shoes', '2026-03-02T10:00:00.000Z', 3),
      check('blue shoes', '2026-03-01T10:00:00.000Z', 9),
      check('blue shoes', '2026-03-02T10:00:00.000Z', 8),
    ]);

    // On the prototype: the export reads through a reader made for its client (forCaller).
    const checkedDays = RankingHistoryReader.prototype.checkedDays;
    const spy = jest.spyOn(RankingHistoryReader.prototype, 'checkedDays').mockImplementationOnce(async function (
      this: RankingHistoryReader,
      ...args
    ) {
      const days = await checkedDays.apply(this, args);
      // The header's days are read; now the first check of 2026-03-03 lands, before the cells are read.
      await seedAndProject(app, [check('red shoes', '2026-03-03T10:00:00.000Z', 2)]);
      return days;
    });
    const query = { projectId, startDate: '2026-03-01', endDate: '2026-03-31' };
    const during = await getRaw(app, '/api/projects/export', query, key);
    expect(spy).toHaveBeenCalledTimes(1);
    expect(during.status).toBe(200);
    const lines = during.bytes.toString('utf8').split('\r\n');
    expect(lines[0]).toBe('\uFEFFKeyword;SERP;Volume;URL;Change;2026-03-02;2026-03-01');
    // Every keyword's line, each with the two columns' cells and nothing of 2026-03-03.
    expect(lines).toHaveLength(4);
    expect(lines[3]).toBe('');
    const cells = (line: string) => line.split(';').slice(-2);
    expect(lines.slice(1, 3).map(cells).sort()).toEqual([
      ['3', '4'],
      ['8', '9'],
    ]);

    const after = (await getRaw(app, '/api/projects/export', query, key)).bytes.toString('utf8').split('\r\n');
    expect(after[0]).toBe('\uFEFFKeyword;SERP;Volume;URL;Change;2026-03-03;2026-03-02;2026-03-01');
    expect(
      after
        .slice(1, 3)
        .map((line) => line.split(';').slice(-3))
        .sort(),
    ).toEqual([
      ['', '8', '9'],
      ['2', '3', '4'],
    ]);
  });
});
