import { CruxHistoryClient } from '@rank/providers/crux/crux-history-client';
import { FakeCruxHistory, type FakeCruxPeriod } from '@rank/providers/crux/testing/fake-crux-history';
import type { DomainDataProviders } from '../domain-data-providers';
import type { DomainDataRepository } from '../domain-data.repository';
import type { DomainDataCommand } from '../domain/domain-data';
import { DomainDataFetcher } from './domain-data-fetcher';

const periods: FakeCruxPeriod[] = [{ lastDate: '2026-02-28', lcpMs: 2400, cls: '0.08', inpMs: 190 }];
const point = { date: '2026-02-28', lcp: 2400, cls: 0.08, inp: 190 };

describe("DomainDataFetcher: a domain's origin CrUX history", () => {
  let crux: FakeCruxHistory;
  let recorded: DomainDataCommand[];
  let fetcher: DomainDataFetcher;

  beforeEach(async () => {
    crux = await FakeCruxHistory.start('crux-key');
    recorded = [];
    const repository = { record: async (command: DomainDataCommand) => void recorded.push(command) } as unknown as DomainDataRepository;
    const providers = { crux: new CruxHistoryClient({ baseUrl: crux.baseUrl, apiKey: 'crux-key' }) } as unknown as DomainDataProviders;
    fetcher = new DomainDataFetcher(providers, repository, { now: () => new Date('2026-03-02T00:00:00Z') });
  });
  afterEach(() => crux.close());

  const askedOrigins = () => crux.api.requests.map((request) => (request.body as { origin?: string }).origin);

  it('is read from the www origin when CrUX has none for the bare one (a site served on www.), recorded as the domain origin', async () => {
    // Given CrUX keeps the site's history under www. only
    crux.records.set('origin:https://www.brand.example', periods);
    // When the domain's origin history is fetched
    const outcome = await fetcher.cruxHistory('brand.example', 'origin', 'https://brand.example', 'background');
    // then the bare origin was asked first, then the www one, and its history is the domain's
    expect(askedOrigins()).toEqual(['https://brand.example', 'https://www.brand.example']);
    expect(outcome).toEqual({ kind: 'fetched', value: [point] });
    expect(recorded).toEqual([
      { type: 'RecordCruxHistory', domain: 'brand.example', target: 'origin', url: 'https://brand.example', points: [point] },
    ]);
  });

  it("is the bare origin's when CrUX has it, without asking for www.", async () => {
    crux.records.set('origin:https://brand.example', periods);
    crux.records.set('origin:https://www.brand.example', [{ ...periods[0]!, lcpMs: 9999 }]);
    const outcome = await fetcher.cruxHistory('brand.example', 'origin', 'https://brand.example', 'background');
    expect(askedOrigins()).toEqual(['https://brand.example']);
    expect(outcome).toEqual({ kind: 'fetched', value: [point] });
  });

  it('is empty when neither origin has data, and a page URL is asked as it is', async () => {
    const none = await fetcher.cruxHistory('brand.example', 'origin', 'https://brand.example', 'background');
    expect(none).toEqual({ kind: 'fetched', value: [] });
    expect(askedOrigins()).toEqual(['https://brand.example', 'https://www.brand.example']);

    const page = 'https://brand.example/eggs';
    crux.records.set(`url:${page}`, periods);
    expect(await fetcher.cruxHistory('brand.example', 'url', page, 'background')).toEqual({ kind: 'fetched', value: [point] });
    expect(crux.api.requests.at(-1)!.body).toMatchObject({ url: page });
    expect(crux.api.requests).toHaveLength(3);
  });
});

describe('DomainDataFetcher: the same question asked twice at once', () => {
  /** A provider call that answers when the test says so. */
  const pending = () => {
    let answer!: (value: unknown) => void;
    let fail!: (error: Error) => void;
    const promise = new Promise((resolve, reject) => ((answer = resolve), (fail = reject)));
    return { promise, answer, fail };
  };
  let calls: { what: string; call: ReturnType<typeof pending> }[];
  let recorded: DomainDataCommand[];
  let fetcher: DomainDataFetcher;

  beforeEach(() => {
    calls = [];
    recorded = [];
    const ask = (what: string) => {
      const call = pending();
      calls.push({ what, call });
      return call.promise;
    };
    const providers = {
      traffic: { configured: true, monthlyTraffic: (domain: string) => ask(`traffic ${domain}`) },
      pageSpeed: { measure: (url: string) => ask(`pagespeed ${url}`) },
    } as unknown as DomainDataProviders;
    const repository = { record: async (command: DomainDataCommand) => void recorded.push(command) } as unknown as DomainDataRepository;
    fetcher = new DomainDataFetcher(providers, repository, { now: () => new Date(nowMs) });
  });
  let nowMs = Date.parse('2026-03-02T00:00:00Z');
  afterEach(() => (nowMs = Date.parse('2026-03-02T00:00:00Z')));

  const months = [{ month: '2026-02', visits: 10, bounceRate: 0.5, avgVisitDuration: 60 }];

  it('answers a question asked again within a minute of its answer with that answer, and asks again after', async () => {
    // Before, a traffic check sent right after another went upstream again: the read models did not show the first's record yet.
    const first = fetcher.traffic('shop.example', 'request');
    await Promise.resolve();
    calls[0]!.call.answer({ months });
    const answered = await first;
    nowMs += 59_000;
    expect(await fetcher.traffic('shop.example', 'request')).toBe(answered);
    expect(calls).toHaveLength(1);
    nowMs += 1_000;
    void fetcher.traffic('shop.example', 'request');
    await Promise.resolve();
    expect(calls).toHaveLength(2);
  });

  it('goes upstream once while the first call is under way, and both callers get its answer', async () => {
    // Given a traffic fetch of a domain under way
    const first = fetcher.traffic('shop.example', 'request');
    // When the same domain is asked for again (a second traffic check, or the background worker)
    const second = fetcher.traffic('shop.example', 'background');
    await Promise.resolve();
    // then the provider was asked once, and both get its answer, recorded once
    expect(calls.map((c) => c.what)).toEqual(['traffic shop.example']);
    calls[0]!.call.answer({ months });
    // the same outcome, recorded at one moment, whoever asked
    expect(await second).toBe(await first);
    expect(await first).toEqual({ kind: 'fetched', value: { months, fetchedAt: new Date('2026-03-02T00:00:00Z') } });
    expect(recorded).toEqual([{ type: 'RecordTraffic', domain: 'shop.example', months }]);
  });

  it('shares a failure too, recorded once, and asks again once the call has settled', async () => {
    const both = [fetcher.traffic('shop.example', 'request'), fetcher.traffic('shop.example', 'request')];
    await Promise.resolve();
    calls[0]!.call.fail(new Error('Similarweb answered 503'));
    expect(await Promise.all(both)).toEqual([
      { kind: 'failed', reason: 'Similarweb answered 503' },
      { kind: 'failed', reason: 'Similarweb answered 503' },
    ]);
    expect(recorded.map((c) => c.type)).toEqual(['RecordFetchFailure']);

    const later = fetcher.traffic('shop.example', 'request');
    await Promise.resolve();
    expect(calls).toHaveLength(2);
    calls[1]!.call.answer(null);
    expect(await later).toEqual({ kind: 'fetched', value: { months: [], fetchedAt: new Date('2026-03-02T00:00:00Z') } });
  });

  it('keeps different questions apart: another domain, or one page measured as a home page and as a ranking page', async () => {
    void fetcher.traffic('a.example', 'request');
    void fetcher.traffic('b.example', 'request');
    void fetcher.pageSpeed('a.example', 'https://a.example/', 'domain', 'request');
    void fetcher.pageSpeed('a.example', 'https://a.example/', 'page', 'background');
    await Promise.resolve();
    expect(calls.map((c) => c.what)).toEqual([
      'traffic a.example',
      'traffic b.example',
      'pagespeed https://a.example/',
      'pagespeed https://a.example/',
    ]);
  });
});
