import { KeywordDataError } from '@rank/providers/keyword-data/keyword-data-error';
import type { KeywordDataProvider } from '../keyword-data-providers';
import type { StoredVolume } from '../volumes.reader';
import { SuggestionsGenerator, SuggestionsStopped } from './suggestions-generator';

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

describe('suggestions generator: the language model', () => {
  const markets = ['US', 'GB', 'CA', 'AU', 'NZ', 'IE'].map((geoCode) => ({ geoCode, langCode: 'en' }));
  /** A generator whose model answers as `answer` says, with autocomplete completing every seed with "<seed> ideas". */
  function withModel(answer: (market: string) => Promise<string[]>, modelDeadlineMs?: number) {
    const asked: string[] = [];
    const signals: (AbortSignal | undefined)[] = [];
    const generator = new SuggestionsGenerator({
      llm: {
        model: 'test',
        keywordsFor: (prompt, signal) => {
          const market = /country (\w+)/.exec(prompt.user)![1]!;
          asked.push(market);
          signals.push(signal);
          return answer(market);
        },
      },
      autocomplete: { complete: async ({ q }) => [`${q} ideas`] },
      provider: null,
      recorder: { fetched: async () => undefined },
      stored: async () => [],
      now: () => NOW,
      log: () => undefined,
      modelDeadlineMs,
    });
    return { generator, asked, signals };
  }

  it('is asked about several locales at once, not one after another', async () => {
    // Given a model that answers only once four locales are being asked at the same time
    let release!: () => void;
    const allAsked = new Promise<void>((resolve) => (release = resolve));
    let inFlight = 0;
    const { generator, asked } = withModel(async (market) => {
      inFlight += 1;
      if (inFlight === 4) release();
      await allAsked;
      return [`${market.toLowerCase()} phrase`];
    });
    // When a run covers six locales
    const output = await generator.generate({ domain: 'shop.example', locales: markets, tracked: [], titles: [] });
    // then the model's phrases fill every locale (one after another, the first call would wait forever)
    expect(output.seedUsed).toBe('llm');
    expect(output.locales.map((l) => l.phrases)).toEqual(markets.map((m) => [`${m.geoCode.toLowerCase()} phrase`]));
    expect(asked.slice(0, 4)).toEqual(['US', 'GB', 'CA', 'AU']);
  });

  it('gives way to autocomplete at its deadline, so a run whose model hangs still ends', async () => {
    const { generator } = withModel(() => new Promise<string[]>(() => undefined), 50);
    const output = await generator.generate({ domain: 'shop.example', locales: [us], tracked: [], titles: [] });
    expect(output.seedUsed).toBe('autocomplete');
    expect(output.locales[0]!.phrases).toEqual(['shop ideas']);
    expect(output.error).toBe(
      'The language model failed, autocomplete was used instead: it had not answered for every locale after 0.05 s',
    );
  });

  it('is asked about no further locale once one has failed, and the calls under way are cut off', async () => {
    const { generator, asked, signals } = withModel(async (market) => {
      if (market === 'US') throw new Error('the model answered 500');
      return new Promise<string[]>((resolve) => setTimeout(() => resolve(['late']), 20));
    });
    const output = await generator.generate({ domain: 'shop.example', locales: markets, tracked: [], titles: [] });
    expect(output.seedUsed).toBe('autocomplete');
    expect(output.error).toBe('The language model failed, autocomplete was used instead: the model answered 500');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(asked).toEqual(['US', 'GB', 'CA', 'AU']);
    expect(signals.map((signal) => signal?.aborted)).toEqual([true, true, true, true]);
  });

  it('ends at once when the service stops: the calls under way are cut off, and autocomplete does not stand in', async () => {
    const { generator, asked, signals } = withModel(() => new Promise<string[]>(() => undefined));
    const stop = new AbortController();
    const run = generator.generate({ domain: 'shop.example', locales: markets, tracked: [], titles: [] }, stop.signal);
    await new Promise((resolve) => setTimeout(resolve, 10));
    stop.abort();
    await expect(run).rejects.toBeInstanceOf(SuggestionsStopped);
    expect(asked).toEqual(['US', 'GB', 'CA', 'AU']);
    expect(signals.map((signal) => signal?.aborted)).toEqual([true, true, true, true]);
  });
});

describe('suggestions generator: the stop signal', () => {
  it("leaves no listener on the runner's stop signal once a run has ended", async () => {
    // The signal lives as long as the runner: a listener left per run piled up (Node warned past 10).
    const generator = new SuggestionsGenerator({
      llm: { model: 'test', keywordsFor: async () => ['a phrase'] },
      autocomplete: { complete: async () => [] },
      provider: null,
      recorder: { fetched: async () => undefined },
      stored: async () => [],
      now: () => NOW,
      log: () => undefined,
    });
    const stop = new AbortController();
    const added: string[] = [];
    const removed: string[] = [];
    const addEventListener = stop.signal.addEventListener.bind(stop.signal);
    const removeEventListener = stop.signal.removeEventListener.bind(stop.signal);
    stop.signal.addEventListener = (type: string, listener: never, options?: never) => (
      added.push(type),
      addEventListener(type, listener, options)
    );
    stop.signal.removeEventListener = (type: string, listener: never) => (removed.push(type), removeEventListener(type, listener));
    for (let run = 0; run < 3; run++) await generator.generate(input, stop.signal);
    expect(added.length).toBeGreaterThan(0);
    expect(removed).toEqual(added);
  });
});
