import { KeywordDataError } from '@rank/providers/keyword-data/keyword-data-error';
import type { KeywordFigures } from '@rank/providers/keyword-data/keyword-data.port';
import type { KeywordDataProvider } from '../keyword-data-providers';
import { KeywordResearch } from './keyword-research';

const months = (values: number[]) => values.map((value, i) => ({ year: 2025, month: i + 1, value }));
const figures = (keyword: string, avg: number | null, history = months([])): KeywordFigures => ({
  keyword,
  avgMonthlySearches: avg,
  competition: 'MEDIUM',
  competitionIndex: 40,
  cpcLow: 0.2,
  cpcHigh: 1.1,
  history,
});

function provider(answer: () => Promise<KeywordFigures[]>): KeywordDataProvider & { calls: unknown[] } {
  const calls: unknown[] = [];
  return {
    source: 'dataforseo',
    calls,
    searchVolumes: async () => [],
    ideasForKeywords: async (market, seeds, options) => {
      calls.push({ market, seeds, options });
      return answer();
    },
    ideasForSite: async () => [],
  };
}

describe('keyword research', () => {
  const ok = () =>
    provider(async () => [figures('trail shoes', 900, months([1, 2, 3])), figures('Running Shoes', 5000), figures('shoe laces', null)]);

  it("answers the seed's related keywords, highest volume first, with a 12-month trend", async () => {
    const p = ok();
    const answer = await new KeywordResearch(p).research({ keyword: '  Running   Shoes ', geo: 'us', lang: 'EN', limit: 2 });
    expect(answer).toEqual({
      success: true,
      keyword: 'running shoes',
      geo: 'US',
      lang: 'en',
      source: 'dataforseo',
      keywords: [
        {
          keyword: 'running shoes',
          avgMonthlySearches: 5000,
          competition: 'MEDIUM',
          competitionIndex: 40,
          cpcLow: 0.2,
          cpcHigh: 1.1,
          trend: Array(12).fill(0),
        },
        {
          keyword: 'trail shoes',
          avgMonthlySearches: 900,
          competition: 'MEDIUM',
          competitionIndex: 40,
          cpcLow: 0.2,
          cpcHigh: 1.1,
          trend: [0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 3],
        },
      ],
    });
    expect(p.calls).toEqual([
      { market: { geoCode: 'US', langCode: 'en' }, seeds: ['running shoes'], options: { limit: 100, signal: expect.any(AbortSignal) } },
    ]);
    // The call's signal, which aborts only at the research timeout: it answered in time.
    expect((p.calls[0] as { options: { signal: AbortSignal } }).options.signal.aborted).toBe(false);
  });

  it("shows the months' average where the provider gave months but no average, as every other read does, and sorts by it", async () => {
    // Before, such a keyword answered null here (and sorted last) and its months' average everywhere else.
    const p = provider(async () => [figures('months only', null, months([600, 700])), figures('with average', 555)]);
    const answer = await new KeywordResearch(p).research({ keyword: 'shoes', limit: 5 });
    expect(answer.success && answer.keywords.map((k) => [k.keyword, k.avgMonthlySearches])).toEqual([
      ['months only', 650],
      ['with average', 555],
    ]);
  });

  it('defaults to US and en', async () => {
    expect(await new KeywordResearch(ok()).research({ keyword: 'shoes', limit: 50 })).toMatchObject({
      success: true,
      geo: 'US',
      lang: 'en',
    });
  });

  it.each([
    [{ keyword: '' }, /keyword/],
    [{ keyword: 'x'.repeat(81) }, /keyword/],
    [{ keyword: 42 }, /keyword/],
    [{ keyword: 'shoes', geo: 'XX' }, /geo/],
    [{ keyword: 'shoes', geo: 'USA' }, /geo/],
    [{ keyword: 'shoes', lang: 'english' }, /lang/],
    [{ keyword: 'shoes', lang: 'qq' }, /lang/],
  ])('refuses %j as an expected failure naming the field', async (body, message) => {
    const p = ok();
    const answer = await new KeywordResearch(p).research({ ...body, limit: 50 });
    expect(answer).toEqual({ success: false, message: expect.stringMatching(message) });
    expect(p.calls).toEqual([]);
  });

  it('says no provider is configured', async () => {
    expect(await new KeywordResearch(null).research({ keyword: 'shoes', limit: 50 })).toEqual({
      success: false,
      message: expect.stringMatching(/DATAFORSEO_LOGIN/),
    });
  });

  it('turns upstream errors and timeouts into messages', async () => {
    const failing = provider(async () => {
      throw new KeywordDataError('dataforseo', 'http', 'HTTP 500', 500);
    });
    expect(await new KeywordResearch(failing).research({ keyword: 'shoes', limit: 50 })).toEqual({
      success: false,
      message: expect.stringMatching(/answered with an error/),
    });
    const slow = provider(() => new Promise((resolve) => setTimeout(() => resolve([]), 500)));
    expect(await new KeywordResearch(slow, 50).research({ keyword: 'shoes', limit: 50 })).toEqual({
      success: false,
      message: expect.stringMatching(/did not answer within/),
    });
  });
});
