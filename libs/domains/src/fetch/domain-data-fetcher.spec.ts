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
