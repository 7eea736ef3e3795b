import { SqliteEventStore } from '@rank/event-store/sqlite/sqlite-event-store';
import { KeywordDataError } from '@rank/providers/keyword-data/keyword-data-error';
import type { KeywordFigures, KeywordMarket } from '@rank/providers/keyword-data/keyword-data.port';
import type { KeywordDataProvider } from './keyword-data-providers';
import type { VolumeEvent } from './domain/volume.events';
import { VolumeFetcher } from './volume-fetcher';
import { VolumeRecorder } from './volume-recorder';
import type { MarketKeyword, StoredVolume } from './volumes.reader';

const NOW = new Date('2026-03-15T12:00:00.000Z');
const figures = (keyword: string): KeywordFigures => ({
  keyword,
  avgMonthlySearches: 100,
  competition: 'LOW',
  competitionIndex: 10,
  cpcLow: 0.1,
  cpcHigh: 0.5,
  history: [{ year: 2026, month: 2, value: 100 }],
});

/** A provider that answers from a script: each call takes the next outcome ('ok' or an error), then answers ok. */
function scriptedProvider(
  script: Array<'ok' | KeywordDataError> = [],
): KeywordDataProvider & { calls: Array<{ market: KeywordMarket; keywords: string[] }> } {
  const calls: Array<{ market: KeywordMarket; keywords: string[] }> = [];
  return {
    source: 'dataforseo',
    calls,
    searchVolumes: async (market, keywords) => {
      calls.push({ market, keywords: [...keywords] });
      const outcome = script.shift() ?? 'ok';
      if (outcome !== 'ok') throw outcome;
      // The provider echoes texts its own way and knows nothing of the last one.
      return keywords.slice(0, -1).map((k) => figures(k.toUpperCase()));
    },
    ideasForKeywords: async () => [],
    ideasForSite: async () => [],
  };
}

const keywordsAdded = (projectId: string, keywords: Array<{ value: string; geoCode: string; langCode: string }>) => ({
  id: crypto.randomUUID(),
  type: 'KeywordsAdded',
  data: { addedAt: NOW.toISOString(), keywords: keywords.map((k, i) => ({ keywordId: `${projectId}-${i}`, ...k })) },
});

describe('volume fetcher', () => {
  let store: SqliteEventStore;
  let fetcher: VolumeFetcher | undefined;
  const logs: string[] = [];

  const start = async (
    provider: KeywordDataProvider,
    options: { stored?: StoredVolume[]; stale?: MarketKeyword[]; retryDelaysMs?: number[]; callsPerMinute?: number } = {},
  ) => {
    fetcher = new VolumeFetcher({
      store,
      provider,
      recorder: new VolumeRecorder(store),
      stored: async () => options.stored ?? [],
      staleTracked: async () => options.stale ?? [],
      now: () => NOW,
      log: (message) => logs.push(message),
      retryDelaysMs: options.retryDelaysMs ?? [10, 20],
      callsPerMinute: options.callsPerMinute ?? 0,
    });
    await fetcher.start();
    return fetcher;
  };
  const volumeEvents = async (stream: string) =>
    (await store.readStream(stream)).map((e) => ({ type: e.type, data: e.data })) as unknown as VolumeEvent[];

  beforeEach(() => {
    store = new SqliteEventStore(':memory:', { pollIntervalMs: 5 });
    logs.length = 0;
  });
  afterEach(async () => {
    await fetcher?.stop();
    fetcher = undefined;
    await store.close();
  });

  it('fetches added keywords per market and records every text asked, with no data for those the provider did not know', async () => {
    const provider = scriptedProvider();
    await start(provider);
    await store.appendToStream(
      'project-p1',
      [
        keywordsAdded('p1', [
          { value: 'running shoes', geoCode: 'US', langCode: 'en' },
          { value: 'laufschuhe', geoCode: 'DE', langCode: 'de' },
          { value: 'trail shoes', geoCode: 'US', langCode: 'en' },
        ]),
      ],
      { expectedRevision: 'any' },
    );
    await waitForCalls(provider, 2);
    await fetcher!.idle();

    expect(provider.calls).toEqual([
      { market: { geoCode: 'US', langCode: 'en' }, keywords: ['running shoes', 'trail shoes'] },
      { market: { geoCode: 'DE', langCode: 'de' }, keywords: ['laufschuhe'] },
    ]);
    const us = await volumeEvents('volumes-US-en');
    expect(us).toHaveLength(1);
    expect(us[0]).toMatchObject({
      type: 'KeywordVolumesFetched',
      data: { geoCode: 'US', langCode: 'en', source: 'dataforseo', currency: 'USD', fetchedAt: NOW.toISOString() },
    });
    const fetched = us[0]!.type === 'KeywordVolumesFetched' ? us[0]!.data.keywords : [];
    expect(fetched.map((k) => [k.keyword, k.avgMonthlySearches])).toEqual([
      ['running shoes', 100],
      ['trail shoes', null],
    ]);
  });

  it('does not fetch again what it has just fetched, nor what is stored and fresh', async () => {
    const provider = scriptedProvider();
    const fresh: StoredVolume = {
      ...figures('stored one'),
      geoCode: 'US',
      langCode: 'en',
      source: 'dataforseo',
      currency: 'USD',
      fetchedAt: '2026-03-10T00:00:00.000Z',
    };
    await start(provider, { stored: [fresh] });
    await store.appendToStream(
      'project-p1',
      [
        keywordsAdded('p1', [
          { value: 'a', geoCode: 'US', langCode: 'en' },
          { value: 'stored one', geoCode: 'US', langCode: 'en' },
        ]),
      ],
      { expectedRevision: 'any' },
    );
    await waitForCalls(provider, 1);
    await fetcher!.idle();
    await store.appendToStream('project-p2', [keywordsAdded('p2', [{ value: 'A', geoCode: 'US', langCode: 'en' }])], {
      expectedRevision: 'any',
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    await fetcher!.idle();
    expect(provider.calls).toEqual([{ market: { geoCode: 'US', langCode: 'en' }, keywords: ['a'] }]);
  });

  it('retries a failed batch with backoff, then records it as failed', async () => {
    const failure = () => new KeywordDataError('dataforseo', 'http', 'HTTP 503', 503);
    const provider = scriptedProvider([failure(), failure(), failure()]);
    await start(provider, { retryDelaysMs: [10, 20] });
    await store.appendToStream('project-p1', [keywordsAdded('p1', [{ value: 'boots', geoCode: 'GB', langCode: 'en' }])], {
      expectedRevision: 'any',
    });
    await waitForCalls(provider, 3);
    await fetcher!.idle();
    expect(provider.calls).toHaveLength(3);
    expect(await volumeEvents('volumes-GB-en')).toEqual([
      {
        type: 'KeywordVolumesFetchFailed',
        data: {
          geoCode: 'GB',
          langCode: 'en',
          source: 'dataforseo',
          keywords: ['boots'],
          reason: 'dataforseo: HTTP 503',
          attempts: 3,
          failedAt: NOW.toISOString(),
        },
      },
    ]);
    expect(logs.filter((l) => l.includes('retrying in'))).toHaveLength(2);
  });

  it('recovers when a retry succeeds', async () => {
    const provider = scriptedProvider([new KeywordDataError('dataforseo', 'timeout', 'no answer')]);
    await start(provider);
    await store.appendToStream(
      'project-p1',
      [
        keywordsAdded('p1', [
          { value: 'boots', geoCode: 'GB', langCode: 'en' },
          { value: 'shoes', geoCode: 'GB', langCode: 'en' },
        ]),
      ],
      { expectedRevision: 'any' },
    );
    await waitForCalls(provider, 2);
    await fetcher!.idle();
    expect((await volumeEvents('volumes-GB-en')).map((e) => e.type)).toEqual(['KeywordVolumesFetched']);
  });

  it('refreshes what the sweep finds stale at start', async () => {
    const provider = scriptedProvider();
    await start(provider, {
      stale: [
        { geoCode: 'FR', langCode: 'fr', keyword: 'chaussures' },
        { geoCode: 'FR', langCode: 'fr', keyword: 'bottes' },
      ],
    });
    await waitForCalls(provider, 1);
    await fetcher!.idle();
    expect(provider.calls).toEqual([{ market: { geoCode: 'FR', langCode: 'fr' }, keywords: ['chaussures', 'bottes'] }]);
  });

  it('saves its checkpoint once nothing is pending, so a restart does not read the log again', async () => {
    const provider = scriptedProvider();
    await start(provider);
    await store.appendToStream('project-p1', [keywordsAdded('p1', [{ value: 'a', geoCode: 'US', langCode: 'en' }])], {
      expectedRevision: 'any',
    });
    await waitForCalls(provider, 1);
    await fetcher!.idle();
    await fetcher!.stop();
    const [checkpoint] = await store.readStream('volume-fetcher-checkpoint', { direction: 'backwards', maxCount: 1 });
    expect(checkpoint).toMatchObject({ type: 'VolumeFetcherCheckpointed', data: { position: expect.any(Number) } });

    const again = scriptedProvider();
    await start(again);
    await new Promise((resolve) => setTimeout(resolve, 100));
    await fetcher!.idle();
    expect(again.calls).toEqual([]);
  });

  it('keeps its checkpoint behind a retry still waiting at stop, so a restart makes the call', async () => {
    const provider = scriptedProvider([new KeywordDataError('dataforseo', 'http', 'HTTP 503', 503)]);
    await start(provider, { retryDelaysMs: [60_000] });
    await store.appendToStream('project-p1', [keywordsAdded('p1', [{ value: 'a', geoCode: 'US', langCode: 'en' }])], {
      expectedRevision: 'any',
    });
    await waitForCalls(provider, 1);
    await new Promise((resolve) => setTimeout(resolve, 50));
    await fetcher!.stop();

    // Before, stop() dropped the retry and saved the checkpoint past it: the restart asked nothing.
    const again = scriptedProvider();
    await start(again);
    await waitForCalls(again, 1);
    await fetcher!.idle();
    expect(again.calls).toEqual([{ market: { geoCode: 'US', langCode: 'en' }, keywords: ['a'] }]);
  });

  it('does not ask again for a keyword whose call waits to be retried', async () => {
    const provider = scriptedProvider([new KeywordDataError('dataforseo', 'http', 'HTTP 503', 503)]);
    await start(provider, { retryDelaysMs: [300] });
    await store.appendToStream('project-p1', [keywordsAdded('p1', [{ value: 'a', geoCode: 'US', langCode: 'en' }])], {
      expectedRevision: 'any',
    });
    await waitForCalls(provider, 1);
    await store.appendToStream('project-p2', [keywordsAdded('p2', [{ value: 'a', geoCode: 'US', langCode: 'en' }])], {
      expectedRevision: 'any',
    });
    await waitForCalls(provider, 2);
    await fetcher!.idle();
    // Before, the second project's keyword was a call of its own beside the retry: three calls.
    expect(provider.calls.map((c) => c.keywords)).toEqual([['a'], ['a']]);
  });

  it("fetches other markets while one market's call hangs", async () => {
    let release: () => void = () => undefined;
    const hanging = new Promise<void>((resolve) => (release = resolve));
    const provider = scriptedProvider();
    const answer = provider.searchVolumes;
    provider.searchVolumes = async (market, keywords) => {
      const answered = answer(market, keywords);
      if (market.geoCode === 'US') await hanging;
      return answered;
    };
    await start(provider, { stale: [{ geoCode: 'US', langCode: 'en', keyword: 'stuck one' }] });
    await waitForCalls(provider, 1);
    // Keywords of other markets come while the US call hangs. Before, they waited until it ended
    // (up to the provider's timeout, on each retry).
    await store.appendToStream(
      'project-p9',
      [
        keywordsAdded('p9', [
          { value: 'flat white', geoCode: 'GB', langCode: 'en' },
          { value: 'laufschuhe', geoCode: 'DE', langCode: 'de' },
        ]),
      ],
      { expectedRevision: 'any' },
    );
    await waitForCalls(provider, 3);
    const recorded = async () => (await volumeEvents('volumes-GB-en')).length + (await volumeEvents('volumes-DE-de')).length;
    const deadline = Date.now() + 5_000;
    while ((await recorded()) < 2 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(await recorded()).toBe(2);
    expect(await volumeEvents('volumes-US-en')).toEqual([]);
    release();
    await fetcher!.idle();
    expect(await volumeEvents('volumes-US-en')).toHaveLength(1);
  });

  it('cuts a call in flight short at stop, records no failure for it, and keeps its checkpoint behind it', async () => {
    // Before, stop() waited for the call, whose tries may take a minute: past the shutdown's 20 s.
    const provider = scriptedProvider();
    let signalled: AbortSignal | undefined;
    provider.searchVolumes = (market, keywords, signal) => {
      provider.calls.push({ market, keywords: [...keywords] });
      signalled = signal;
      return new Promise((_, reject) => signal?.addEventListener('abort', () => reject(new Error('cut off: the caller stopped waiting'))));
    };
    await start(provider, { stale: [{ geoCode: 'US', langCode: 'en', keyword: 'hanging' }] });
    await waitForCalls(provider, 1);
    const stopping = Date.now();
    await fetcher!.stop();
    expect(Date.now() - stopping).toBeLessThan(1_000);
    expect(signalled?.aborted).toBe(true);
    expect(logs.filter((line) => line.includes('failed'))).toEqual([]);
    expect(await volumeEvents('volumes-US-en')).toEqual([]);
    expect(await store.readStream('volume-fetcher-checkpoint')).toEqual([]);
  });

  it('paces background calls and stops at once while waiting for its turn', async () => {
    const provider = scriptedProvider();
    const stale = Array.from({ length: 3 }, (_, i) => ({ geoCode: ['US', 'GB', 'DE'][i]!, langCode: 'en', keyword: `k${i}` }));
    await start(provider, { stale, callsPerMinute: 2 });
    await waitForCalls(provider, 2);
    await new Promise((resolve) => setTimeout(resolve, 100));
    // The third market waits for the minute to pass.
    expect(provider.calls).toHaveLength(2);
    const stopping = Date.now();
    await fetcher!.stop();
    expect(Date.now() - stopping).toBeLessThan(1_000);
    expect(provider.calls).toHaveLength(2);
    // The call cut short is work not done: no checkpoint passes it.
    expect(await store.readStream('volume-fetcher-checkpoint')).toEqual([]);
  });
});

async function waitForCalls(provider: { calls: unknown[] }, count: number): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (provider.calls.length < count) {
    if (Date.now() > deadline) throw new Error(`expected ${count} provider calls, saw ${provider.calls.length}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
