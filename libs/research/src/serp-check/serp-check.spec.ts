import type { KeywordVolumes, VolumeLookup } from '../keyword-volumes';
import type { LiveCheckOutcome, LiveChecks } from './live-checks';
import { liveCheckAnswer, startLiveCheck } from './live-check.process';
import { NO_VOLUME, SerpCheck } from './serp-check';

const target = { accountId: 'a1', keyword: 'eggs', geoCode: 'US', langCode: 'en' };
const found: VolumeLookup = {
  kind: 'found',
  volume: {
    geoCode: 'US',
    langCode: 'en',
    keyword: 'eggs',
    source: 'dataforseo',
    avgMonthlySearches: 900,
    competition: 'LOW',
    competitionIndex: 12,
    cpcLow: 0.5,
    cpcHigh: 1.5,
    currency: 'USD',
    history: [{ year: 2026, month: 1, value: 900 }],
    fetchedAt: '2026-02-01T00:00:00.000Z',
  },
};
const answered: LiveCheckOutcome = {
  type: 'LiveCheckAnswered',
  data: { requestId: 'r', serp: [{ position: 1, url: 'https://a.example/', title: 'A', snippet: 's' }], source: 'browser', answeredAt: '' },
};
const failedPage: LiveCheckOutcome = {
  type: 'LiveCheckFailed',
  data: { requestId: 'r', reason: 'captcha', cause: 'blocked', answeredAt: '' },
};
const timedOut: LiveCheckOutcome = { type: 'timeout', waitedMs: 60_000 };

const serpCheck = (page: LiveCheckOutcome, volume: VolumeLookup | Error | 'never', serpCheckTimeoutMs = 60_000) =>
  new SerpCheck(
    { check: async () => page } as unknown as LiveChecks,
    {
      lookup: async () => (volume === 'never' ? new Promise(() => undefined) : volume instanceof Error ? Promise.reject(volume) : volume),
    } as unknown as KeywordVolumes,
    { serpCheckTimeoutMs },
  );

describe('serp-check: when it is a 502', () => {
  it('is a 502 only when the page and the volume lookup both failed', async () => {
    expect(await serpCheck(failedPage, { kind: 'failed', reason: 'HTTP 500' }).check(target)).toMatchObject({ kind: 'failed' });
    expect(await serpCheck(timedOut, new Error('read store down')).check(target)).toMatchObject({ kind: 'failed' });
  });

  it('a volume miss is no failure: a failed page with no data gives serp [] and the no-data volume', async () => {
    expect(await serpCheck(failedPage, { kind: 'none' }).check(target)).toEqual({ kind: 'checked', serp: [], volume: NO_VOLUME });
  });

  it('keeps whichever half worked', async () => {
    expect(await serpCheck(answered, { kind: 'failed', reason: 'timeout' }).check(target)).toEqual({
      kind: 'checked',
      serp: answered.type === 'LiveCheckAnswered' ? answered.data.serp : [],
      volume: NO_VOLUME,
    });
    expect(await serpCheck(timedOut, found).check(target)).toEqual({
      kind: 'checked',
      serp: [],
      volume: {
        value: 900,
        cpc: 1.5,
        competition: 'LOW',
        metrics: { avgMonthlySearches: 900, competition: 'LOW', competitionIndex: 12, cpcLow: 0.5, cpcHigh: 1.5 },
        volume: [{ year: 2026, month: 1, value: 900 }],
      },
    });
  });
});

describe('serp-check: how long it waits', () => {
  it('waits for the volume no longer than for the page: a provider still retrying leaves the volume out', async () => {
    // Before, a volume lookup retrying for a minute held the answer past the HTTP connection's life.
    const started = Date.now();
    const outcome = await serpCheck(answered, 'never', 50).check(target);
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(outcome).toEqual({ kind: 'checked', serp: answered.type === 'LiveCheckAnswered' ? answered.data.serp : [], volume: NO_VOLUME });
    expect(await serpCheck(timedOut, 'never', 50).check(target)).toMatchObject({
      kind: 'failed',
      reason: expect.stringMatching(/the volume lookup failed \(keyword volumes: no answer within 0.05 s\)/),
    });
  });
});

describe('live check on a scraper', () => {
  const request = {
    requestId: 'r1',
    accountId: 'a1',
    keyword: 'eggs',
    geoCode: 'US',
    langCode: 'en',
    requestedAt: '2026-03-01T10:00:00.000Z',
    expiresAt: '2026-03-01T10:01:00.000Z',
  };

  it('loads the first page only while the api still waits', () => {
    expect(startLiveCheck(request, new Date('2026-03-01T10:00:05Z'))).toEqual({
      kind: 'fetch',
      request: { keyword: 'eggs', geoCode: 'US', langCode: 'en', depth: 10 },
    });
    expect(startLiveCheck(request, new Date('2026-03-01T10:01:00Z'))).toMatchObject({
      kind: 'record',
      answer: { type: 'LiveCheckFailed', data: { cause: 'expired' } },
    });
  });

  it('answers at most 10 organic results numbered from 1, or why the page failed', () => {
    const organic = Array.from({ length: 12 }, (_, i) => ({
      position: i + 1,
      url: `https://r${i}.example/`,
      title: `R${i}`,
      domain: `r${i}.example`,
      snippet: `s${i}`,
    }));
    const answer = liveCheckAnswer(request, { kind: 'success', organic, aiOverview: [], pagesRead: 2 }, new Date('2026-03-01T10:00:03Z'));
    expect(answer.type).toBe('LiveCheckAnswered');
    if (answer.type === 'LiveCheckAnswered') expect(answer.data.serp.map((r) => r.position)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(liveCheckAnswer(request, { kind: 'failed', reason: 'captcha', pagesRead: 0, cause: 'blocked' }, new Date())).toMatchObject({
      type: 'LiveCheckFailed',
      data: { reason: 'captcha', cause: 'blocked' },
    });
  });
});

describe('serp-check: the volume', () => {
  it("shows the average every other read shows: the provider's, else the stored months'", async () => {
    // Before, a provider that gave months but no average answered value: null beside its cpc and competition.
    const noAverage: VolumeLookup = {
      kind: 'found',
      volume: {
        ...(found as Extract<VolumeLookup, { kind: 'found' }>).volume,
        avgMonthlySearches: null,
        history: [
          { year: 2026, month: 1, value: 900 },
          { year: 2026, month: 2, value: 1100 },
        ],
      },
    };
    const checked = await serpCheck(answered, noAverage).check(target);
    expect(checked).toMatchObject({ kind: 'checked', volume: { value: 1000, cpc: 1.5, metrics: { avgMonthlySearches: 1000 } } });
    expect(await serpCheck(answered, found).check(target)).toMatchObject({ volume: { value: 900, metrics: { avgMonthlySearches: 900 } } });
  });
});
