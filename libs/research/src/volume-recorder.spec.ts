import type { KeywordMetrics } from './domain/volume.events';
import { metricsOfAsked } from './volume-recorder';

const figures = (keyword: string, avgMonthlySearches: number): KeywordMetrics => ({
  keyword,
  avgMonthlySearches,
  competition: null,
  competitionIndex: null,
  cpcLow: null,
  cpcHigh: null,
  history: [],
});

describe('metricsOfAsked: the figures of each text asked', () => {
  it('given answers in another case and spacing, matches each to the text asked', () => {
    const matched = metricsOfAsked(['big shoes'], [figures(' Big  Shoes ', 10)]);
    expect(matched.map((m) => [m.keyword, m.avgMonthlySearches])).toEqual([['big shoes', 10]]);
  });

  it('given an answer that dropped the accents, still matches it (before, the figures were lost)', () => {
    const matched = metricsOfAsked(['café crème', 'crème brûlée'], [figures('cafe creme', 500), figures('creme brulee', 20)]);
    expect(matched.map((m) => [m.keyword, m.avgMonthlySearches])).toEqual([
      ['café crème', 500],
      ['crème brûlée', 20],
    ]);
  });

  it('never gives one text asked the figures answered for another text asked (мой and мои, bàn and bán are different words)', () => {
    // The verifying audit: both asked, only one answered; before, both got the same figures.
    for (const [asked, answer] of [
      [['мой', 'мои'], figures('мои', 1000)],
      [['bàn', 'bán'], figures('bán', 700)],
    ] as const) {
      const matched = metricsOfAsked(asked, [answer]);
      expect(matched.map((m) => [m.keyword, m.avgMonthlySearches])).toEqual([
        [asked[0], asked[0] === answer.keyword ? answer.avgMonthlySearches : null],
        [asked[1], asked[1] === answer.keyword ? answer.avgMonthlySearches : null],
      ]);
    }
  });

  it('gives an accent-free answer to neither text when it fits two unanswered ones (bàn and bán answered as ban)', () => {
    // The verifying audit: both got its figures.
    const matched = metricsOfAsked(['bàn', 'bán', 'café'], [figures('ban', 500), figures('cafe', 9)]);
    expect(matched.map((m) => [m.keyword, m.avgMonthlySearches])).toEqual([
      ['bàn', null],
      ['bán', null],
      ['café', 9],
    ]);
  });

  it('prefers the exact spelling when the provider answers both', () => {
    const matched = metricsOfAsked(['café', 'cafe'], [figures('cafe', 7), figures('café', 9)]);
    expect(matched.map((m) => [m.keyword, m.avgMonthlySearches])).toEqual([
      ['café', 9],
      ['cafe', 7],
    ]);
  });

  it('keeps the marks of other scripts (Japanese が is not か), and answers no data instead', () => {
    const [matched] = metricsOfAsked(['がっこう'], [figures('かっこう', 300)]);
    expect(matched).toEqual({ ...figures('がっこう', 0), avgMonthlySearches: null });
  });
});
