import { KeywordDataError } from '@rank/providers/keyword-data/keyword-data-error';
import type { KeywordDataProvider } from '../keyword-data-providers';
import type { StoredVolume } from '../volumes.reader';
import { SuggestionsGenerator } from './suggestions-generator';

const NOW = new Date('2026-03-15T12:00:00.000Z');
const us = { geoCode: 'US', langCode: 'en' };
const storedAt = (keyword: string, last: number, fetchedAt: string): StoredVolume => ({
  ...us,
  keyword,
  source: 'dataforseo',
  avgMonthlySearches: last,
  competition: null,
  competitionIndex: null,
  cpcLow: null,
  cpcHigh: null,
  currency: 'USD',
  history: [{ year: 2026, month: 1, value: last }],
  fetchedAt,
});

function generatorWith(searchVolumes: KeywordDataProvider['searchVolumes']) {
  const asked: string[][] = [];
  const generator = new SuggestionsGenerator({
    llm: { model: 'test', keywordsFor: async () => ['fresh phrase', 'stale phrase', 'new phrase'] },
    autocomplete: { complete: async () => [] },
    provider: {
      source: 'dataforseo',
      searchVolumes: async (market, keywords) => (asked.push([...keywords]), searchVolumes(market, keywords)),
      ideasForKeywords: async () => [],
      ideasForSite: async () => [],
    },
    recorder: { fetched: async () => undefined },
    // One phrase fetched this month, one two months ago.
    stored: async () => [
      storedAt('fresh phrase', 100, '2026-03-10T00:00:00.000Z'),
      storedAt('stale phrase', 50, '2026-01-10T00:00:00.000Z'),
    ],
    now: () => NOW,
    log: () => undefined,
  });
  return { generator, asked };
}

const input = { domain: 'shop.example', locales: [us], tracked: [], titles: [] };

describe("suggestions generator: the phrases' volumes", () => {
  it('asks the provider for phrases without figures and for figures over a month old, not for fresh ones', async () => {
    // Before, a stored figure counted as known whatever its age: a suggested phrase's volume was never refreshed.
    const { generator, asked } = generatorWith(async () => [
      {
        keyword: 'stale phrase',
        avgMonthlySearches: 500,
        competition: null,
        competitionIndex: null,
        cpcLow: null,
        cpcHigh: null,
        history: [{ year: 2026, month: 2, value: 500 }],
      },
      {
        keyword: 'new phrase',
        avgMonthlySearches: 10,
        competition: null,
        competitionIndex: null,
        cpcLow: null,
        cpcHigh: null,
        history: [{ year: 2026, month: 2, value: 10 }],
      },
    ]);
    const output = await generator.generate(input);
    expect(asked).toEqual([['stale phrase', 'new phrase']]);
    expect(output.locales[0]!.phrases).toEqual(['stale phrase', 'fresh phrase', 'new phrase']);
  });

  it('keeps the stale figures when the provider fails', async () => {
    const { generator } = generatorWith(async () => {
      throw new KeywordDataError('dataforseo', 'timeout', 'no answer');
    });
    expect((await generator.generate(input)).locales[0]!.phrases).toEqual(['fresh phrase', 'stale phrase', 'new phrase']);
  });
});
