import type { ReadStore } from '@rank/read-store/read-store.port';
import type { TrackedKeyword } from '@rank/projects/domain/project-content.events';
import { CSV_BOM, csvLine, csvTextField } from '@rank/tracking/exports/csv';
import { FULL_COLUMNS, SUMMARY_COLUMNS } from '@rank/tracking/exports/csv-exports';
import { inExportOrder, pagesOf } from '@rank/tracking/exports/keyword-pages';
import { changeOf, formatAverage } from '@rank/tracking/exports/ranking-figures';
import { RankingHistoryReader, DayRange } from '@rank/tracking/exports/ranking-history.reader';
import type { SeededCheck } from '../../support/seed-checks';
import type { TestApp } from '../../support/test-app';
import { createProject, NOW, seed, serp, startReadsApp } from '../reads/reads-fixture';
import { getRaw } from './export-fixtures';
import { previousDailyPositions, previousKeywordsPerPage, previousSummary } from './previous-exports';

/**
 * The CSV exports now read their history in keyword-id order into compact arrays, then write the
 * lines in export order. This proves the files did not change: the previous generators, kept
 * below (pages in export order, each page's queries then its lines), and the endpoint, on the same
 * checks, must give the same bytes. Keyword texts are chosen so that export order and id order differ,
 * and the pages are small (a long window), so keywords cross pages differently in the two orders.
 */
const numberOrEmpty = (value: number | null | undefined) => (value === null || value === undefined ? '' : String(value));

async function previousFull(
  history: RankingHistoryReader,
  store: ReadStore,
  projectId: string,
  keywords: readonly TrackedKeyword[],
  range: DayRange,
): Promise<string> {
  const ordered = inExportOrder(keywords);
  const days = await history.checkedDays(
    projectId,
    ordered.map((k) => k.keywordId),
    range,
  );
  let text = CSV_BOM + csvLine([...FULL_COLUMNS, ...days]);
  for (const page of pagesOf(ordered, previousKeywordsPerPage(days.length))) {
    const ids = page.map((k) => k.keywordId);
    const latest = await history.latestChecks(projectId, ids, range.endDate);
    const daily = await previousDailyPositions(store, projectId, ids, range);
    text += page
      .map((keyword) => {
        const check = latest.get(keyword.keywordId);
        const positions = daily.get(keyword.keywordId);
        return csvLine([
          csvTextField(keyword.value),
          numberOrEmpty(check?.position),
          '',
          csvTextField(check?.url ?? ''),
          numberOrEmpty(changeOf(check)),
          ...days.map((day) => numberOrEmpty(positions?.get(day))),
        ]);
      })
      .join('');
  }
  return text;
}

async function previousSummaryCsv(
  history: RankingHistoryReader,
  store: ReadStore,
  projectId: string,
  keywords: readonly TrackedKeyword[],
  range: DayRange,
): Promise<string> {
  const ordered = inExportOrder(keywords);
  const days = await history.checkedDays(
    projectId,
    ordered.map((k) => k.keywordId),
    range,
  );
  let text = CSV_BOM + csvLine([...SUMMARY_COLUMNS]);
  for (const page of pagesOf(ordered, previousKeywordsPerPage(days.length))) {
    const ids = page.map((k) => k.keywordId);
    const latest = await history.latestChecks(projectId, ids, range.endDate);
    const daily = await previousDailyPositions(store, projectId, ids, range);
    text += page
      .map((keyword) => {
        const check = latest.get(keyword.keywordId);
        const summary = previousSummary(daily.get(keyword.keywordId)?.values() ?? []);
        return csvLine([
          csvTextField(keyword.value),
          numberOrEmpty(check?.position),
          numberOrEmpty(summary.best),
          numberOrEmpty(summary.worst),
          summary.average === null ? '' : formatAverage(summary.average),
          numberOrEmpty(changeOf(check)),
          String(summary.checkedDays),
          String(summary.notRankingDays),
          csvTextField(check?.url ?? ''),
        ]);
      })
      .join('');
  }
  return text;
}

const DAY_MS = 86_400_000;
const VALUES = ['zebra', 'apple', 'mango', '=formula', 'kiwi; "quoted"', 'banana', 'cherry', 'never checked', 'date', 'fig'];

describe('CSV exports give the same files as the previous generators', () => {
  let app: TestApp;
  let key: string;
  let projectId: string;
  let keywords: TrackedKeyword[];

  beforeAll(async () => {
    app = await startReadsApp();
    key = (await app.createAccount()).apiKey;
    const created = await createProject(app, key, { domain: 'ours.com' }, [{ keywords: VALUES, geoCode: 'US', langCode: 'en' }]);
    projectId = created.projectId;
    keywords = VALUES.map((value) => ({ keywordId: created.ids[value]!, value, geoCode: 'US', langCode: 'en' }) as TrackedKeyword);
    let state = 11;
    const next = (n: number) => ((state = (state * 1_103_515_245 + 12_345) % 2_147_483_648), state % n);
    const checks: SeededCheck[] = [];
    for (const [k, keyword] of keywords.entries()) {
      if (keyword.value === 'never checked') continue;
      for (let day = 80; day >= 0; day--) {
        if (next(6) === 0) continue; // a day without a check
        const at = NOW.getTime() - day * DAY_MS - 8 * 3_600_000 + k * 60_000;
        const position = next(12);
        checks.push(
          next(12) === 0
            ? { projectId, keywordId: keyword.keywordId, at: new Date(at).toISOString(), failedReason: 'Blocked by Google (captcha)' }
            : {
                projectId,
                keywordId: keyword.keywordId,
                at: new Date(at).toISOString(),
                projectDomains: ['ours.com'],
                urls: serp(position ? { [position]: `https://ours.com/p${next(3)}` } : {}, 10),
              },
        );
        if (next(8) === 0)
          checks.push({
            projectId,
            keywordId: keyword.keywordId,
            at: new Date(at + 3_600_000).toISOString(),
            projectDomains: ['ours.com'],
            urls: serp({ [1 + next(9)]: 'https://ours.com/later' }, 10),
          });
      }
    }
    const ids = await seed(app, checks);
    await seed(app, [{ ...checks[7]!, checkId: ids[7]! }]);
  }, 120_000);
  afterAll(() => app.close());

  it.each([
    ['full, 80 days', 'full', '2025-12-30', '2026-03-20'],
    ['full, a past month', 'full', '2026-02-01', '2026-02-28'],
    ['summary, 80 days', 'summary', '2025-12-30', '2026-03-20'],
    ['summary, a past month', 'summary', '2026-02-01', '2026-02-28'],
  ])('%s', async (_label, format, startDate, endDate) => {
    const history = new RankingHistoryReader(app.running.stores.readStore);
    const range = { startDate, endDate };
    const expected =
      format === 'full'
        ? await previousFull(history, app.running.stores.readStore, projectId, keywords, range)
        : await previousSummaryCsv(history, app.running.stores.readStore, projectId, keywords, range);
    expect(expected.split('\r\n').length).toBe(VALUES.length + 2);
    const answer = await getRaw(app, '/api/projects/export', { projectId, format, startDate, endDate }, key);
    expect(answer.status).toBe(200);
    expect(answer.bytes.toString('utf8')).toBe(expected);
  });
});
