import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CruxHistoryClient } from '@rank/providers/crux/crux-history-client';
import { PsiPageSpeedProvider } from '@rank/providers/pagespeed/psi-page-speed-provider';
import { SimilarwebClient } from '@rank/providers/similarweb/similarweb-client';
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

describe('DomainDataFetcher: stopped while provider calls hang', () => {
  let upstream: Server;
  let asked: string[];
  let recorded: DomainDataCommand[];
  let fetcher: DomainDataFetcher;

  beforeEach(async () => {
    asked = [];
    recorded = [];
    // Similarweb, PageSpeed Insights and CrUX all at one address that takes every request and never answers.
    upstream = createServer((request) => void asked.push(new URL(request.url!, 'http://upstream').pathname));
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    const baseUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
    const providers: DomainDataProviders = {
      traffic: new SimilarwebClient({ baseUrl, apiKey: 'similarweb-key' }),
      pageSpeed: new PsiPageSpeedProvider({ baseUrl, apiKey: 'psi-key' }),
      crux: new CruxHistoryClient({ baseUrl, apiKey: 'crux-key' }),
    };
    const repository = { record: async (command: DomainDataCommand) => void recorded.push(command) } as unknown as DomainDataRepository;
    fetcher = new DomainDataFetcher(providers, repository, { now: () => new Date('2026-03-02T00:00:00Z') });
  });
  afterEach(async () => {
    upstream.closeAllConnections();
    await new Promise((resolve) => upstream.close(resolve));
  });

  it('cuts every call under way off at once, records no failure for them, and asks nothing after', async () => {
    // Given a traffic fetch, a page-speed run and a CrUX history under way, none answered (the providers' timeouts are 15-60 s)
    const underWay = [
      fetcher.traffic('shop.example', 'background'),
      fetcher.pageSpeed('shop.example', 'https://shop.example/', 'domain', 'background'),
      fetcher.cruxHistory('shop.example', 'url', 'https://shop.example/eggs', 'background'),
    ];
    while (asked.length < 5) await new Promise((resolve) => setTimeout(resolve, 10));
    // When the process stops
    const stoppedAt = Date.now();
    fetcher.stop();
    // then each ends within moments, as stopped: not a failure of the provider, so nothing is recorded
    expect(await Promise.all(underWay)).toEqual([{ kind: 'stopped' }, { kind: 'stopped' }, { kind: 'stopped' }]);
    expect(Date.now() - stoppedAt).toBeLessThan(2_000);
    expect(recorded).toEqual([]);
    // and a question asked after the stop goes nowhere
    expect(await fetcher.traffic('other.example', 'request')).toEqual({ kind: 'stopped' });
    expect(asked).toHaveLength(5);
  }, 10_000);
});
