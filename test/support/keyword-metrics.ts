import type { KeywordMetrics } from '@rank/research/domain/volume.events';

/** A provider's figures for a keyword, as a volume fetch records them: `history` is 2025's months from January on. */
export const keywordMetrics = (keyword: string, avgMonthlySearches: number | null, history: number[] = []): KeywordMetrics => ({
  keyword,
  avgMonthlySearches,
  competition: 'LOW',
  competitionIndex: 10,
  cpcLow: 0.1,
  cpcHigh: 0.5,
  history: history.map((value, i) => ({ year: 2025, month: i + 1, value })),
});
