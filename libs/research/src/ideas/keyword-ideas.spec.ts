import { KeywordDataError } from '@rank/providers/keyword-data/keyword-data-error';
import type { KeywordFigures } from '@rank/providers/keyword-data/keyword-data.port';
import type { AutocompleteProvider, KeywordDataProvider } from '../keyword-data-providers';
import { KeywordIdeas } from './keyword-ideas';

const figures = (keyword: string, avgMonthlySearches: number | null): KeywordFigures => ({
  keyword,
  avgMonthlySearches,
  competition: avgMonthlySearches === null ? null : 'LOW',
  competitionIndex: null,
  cpcLow: null,
  cpcHigh: null,
  history: [],
});

function provider(over: Partial<KeywordDataProvider> = {}): KeywordDataProvider & { seeds: string[][] } {
  const seeds: string[][] = [];
  return {
    source: 'dataforseo',
    seeds,
    searchVolumes: async () => [],
    ideasForKeywords: async (_market, s) => {
      seeds.push([...s]);
      return [figures('Trail Shoes', 900), figures('running shoes', 5000), figures('shoe laces', null)];
    },
    ideasForSite: async () => [figures('trail shoes', 900), figures('buy shoes online', 2000)],
    ...over,
  };
}

const noAutocomplete: AutocompleteProvider = {
  complete: async () => {
    throw new KeywordDataError('autocomplete', 'unreachable', 'connection refused');
  },
};
const seed = {
  geoCode: 'US',
  langCode: 'en',
  domain: 'shop.example.com',
  tracked: [
    { value: 'running shoes', geoCode: 'US', langCode: 'en' },
    { value: 'laufschuhe', geoCode: 'DE', langCode: 'de' },
  ],
};

/** A call that only ends when it is cut off, as the providers' calls do when their signal aborts; its signal goes to `signals`. */
const untilCutOff = (signal: AbortSignal | undefined, signals: (AbortSignal | undefined)[]) =>
  new Promise<never>((_, reject) => {
    signals.push(signal);
    signal?.addEventListener('abort', () => reject(new KeywordDataError('dataforseo', 'timeout', 'cut off')));
  });

describe('keyword ideas', () => {
  it("merges the provider's ideas for the seeds and the site, without tracked keywords, highest volume first", async () => {
    const p = provider();
    const answer = await new KeywordIdeas(noAutocomplete, p).forProject(seed);
    expect(answer).toEqual({
      ideas: [
        { keyword: 'buy shoes online', avgMonthlySearches: 2000, competition: 'LOW' },
        { keyword: 'trail shoes', avgMonthlySearches: 900, competition: 'LOW' },
        { keyword: 'shoe laces', avgMonthlySearches: null, competition: null },
      ],
    });
    // The market's keywords come first among the seeds.
    expect(p.seeds).toEqual([['running shoes', 'laufschuhe']]);
  });

  it('leaves out only the keywords tracked in the market asked for: one tracked in another market is still an idea', async () => {
    // Before, "laufschuhe", tracked in Germany, was left out of the US ideas too.
    const p = provider({ ideasForSite: async () => [figures('laufschuhe', 300), figures('running shoes', 5000)] });
    const answer = await new KeywordIdeas(noAutocomplete, p).forProject(seed);
    expect(answer.ideas.map((idea) => idea.keyword)).toEqual(['trail shoes', 'laufschuhe', 'shoe laces']);
  });

  it('answers upstream_error when the provider answered with an error', async () => {
    const p = provider({
      ideasForSite: async () => {
        throw new KeywordDataError('dataforseo', 'http', 'task 40501: Invalid Field', 200);
      },
    });
    expect(await new KeywordIdeas(noAutocomplete, p).forProject(seed)).toEqual({ ideas: [], error: 'upstream_error' });
  });

  it('answers service_unavailable when the provider cannot be reached', async () => {
    const p = provider({
      ideasForKeywords: async () => {
        throw new KeywordDataError('dataforseo', 'unreachable', 'ECONNRESET');
      },
    });
    expect(await new KeywordIdeas(noAutocomplete, p).forProject(seed)).toEqual({ ideas: [], error: 'service_unavailable' });
  });

  it('answers a failure only once the other call has ended too, so that no call of the request outlives its answer', async () => {
    let siteCallEnded = false;
    const p = provider({
      ideasForKeywords: async () => {
        throw new KeywordDataError('dataforseo', 'unreachable', 'ECONNRESET');
      },
      ideasForSite: () =>
        new Promise((resolve) =>
          setTimeout(() => {
            siteCallEnded = true;
            resolve([]);
          }, 100),
        ),
    });
    expect(await new KeywordIdeas(noAutocomplete, p).forProject(seed)).toEqual({ ideas: [], error: 'service_unavailable' });
    expect(siteCallEnded).toBe(true);
  });

  it('answers service_unavailable when the provider takes longer than the timeout', async () => {
    const p = provider({ ideasForSite: () => new Promise((resolve) => setTimeout(() => resolve([]), 500)) });
    expect(await new KeywordIdeas(noAutocomplete, p, 50).forProject(seed)).toEqual({ ideas: [], error: 'service_unavailable' });
  });

  it('at the timeout, aborts the signal both provider calls were given, so neither runs on after the answer', async () => {
    const signals: (AbortSignal | undefined)[] = [];
    const p = provider({
      ideasForKeywords: (_market, _seeds, options) => untilCutOff(options?.signal, signals),
      ideasForSite: (_market, _domain, options) => untilCutOff(options?.signal, signals),
    });
    expect(await new KeywordIdeas(noAutocomplete, p, 50).forProject(seed)).toEqual({ ideas: [], error: 'service_unavailable' });
    expect(signals).toHaveLength(2);
    expect(signals.map((signal) => signal?.aborted)).toEqual([true, true]);
  });

  it('cuts the other call off at the first failure, and answers that failure, not the cut-off', async () => {
    const signals: (AbortSignal | undefined)[] = [];
    const p = provider({
      ideasForKeywords: (_market, _seeds, options) => untilCutOff(options?.signal, signals),
      ideasForSite: async () => {
        throw new KeywordDataError('dataforseo', 'http', 'task 40501: Invalid Field', 200);
      },
    });
    const started = Date.now();
    // The timeout is far away: only the failure can end the seeds' call.
    expect(await new KeywordIdeas(noAutocomplete, p, 10_000).forProject(seed)).toEqual({ ideas: [], error: 'upstream_error' });
    expect(signals.map((signal) => signal?.aborted)).toEqual([true]);
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('falls back to autocomplete without a provider: phrases with null figures', async () => {
    const asked: string[] = [];
    const autocomplete: AutocompleteProvider = {
      complete: async (q) => {
        asked.push(`${q.q}|${q.hl}|${q.gl}`);
        return ['running shoes', 'Running Shoes Women', 'running shoes men'];
      },
    };
    const answer = await new KeywordIdeas(autocomplete, null).forProject(seed);
    expect(answer).toEqual({
      ideas: [
        { keyword: 'running shoes women', avgMonthlySearches: null, competition: null },
        { keyword: 'running shoes men', avgMonthlySearches: null, competition: null },
      ],
    });
    expect(asked).toEqual(['running shoes|en|US', 'laufschuhe|en|US']);
  });

  it("seeds autocomplete with the domain's name for a project without keywords", async () => {
    const asked: string[] = [];
    const autocomplete: AutocompleteProvider = {
      complete: async (q) => {
        asked.push(q.q);
        return [];
      },
    };
    expect(await new KeywordIdeas(autocomplete, null).forProject({ ...seed, tracked: [] })).toEqual({ ideas: [] });
    expect(asked).toEqual(['example']);
  });

  it('answers service_unavailable with no provider when autocomplete fails', async () => {
    expect(await new KeywordIdeas(noAutocomplete, null).forProject(seed)).toEqual({ ideas: [], error: 'service_unavailable' });
  });
});
