import type { NewDomainAllowances } from '@rank/accounts/new-domain-allowances';
import type { DomainDataProviders } from './domain-data-providers';
import type { DomainDataRepository } from './domain-data.repository';
import { DomainDataFetcher } from './fetch/domain-data-fetcher';
import type { DomainDataReader } from './reads/domain-data.reader';
import { TrafficCheck } from './traffic-check';

describe('TrafficCheck: checks of one new domain at once', () => {
  it('answer the one shared fetch with the one time it was recorded at', async () => {
    // Given a clock that moves a millisecond each time it is read, and a provider that answers when told
    let ms = Date.parse('2026-03-15T12:00:00.000Z');
    const clock = { now: () => new Date(ms++) };
    let answer!: (value: unknown) => void;
    const providers = {
      traffic: {
        configured: true,
        monthlyTraffic: () => new Promise((resolve) => (answer = resolve)),
      },
      pageSpeed: { measure: async () => Promise.reject(new Error('no page speed here')) },
    } as unknown as DomainDataProviders;
    const recordedAt: Date[] = [];
    const repository = {
      record: async (command: { type: string }, at: Date) => void (command.type === 'RecordTraffic' && recordedAt.push(at)),
    } as unknown as DomainDataRepository;
    const fetcher = new DomainDataFetcher(providers, repository, clock);
    const reader = { traffic: async () => [], pageSpeedOfDomains: async () => [] } as unknown as DomainDataReader;
    const allowances = { count: async () => undefined } as unknown as NewDomainAllowances;
    const check = new TrafficCheck(reader, fetcher, allowances, clock);

    // When two accounts check the domain at once
    const first = check.check('a1', 'shop.example');
    const second = check.check('a2', 'shop.example');
    await new Promise((resolve) => setTimeout(resolve, 10));
    answer({ months: [{ month: '2026-02', visits: 100, bounceRate: 0.5, avgVisitDuration: 60 }] });
    const [a, b] = await Promise.all([first, second]);

    // then both answers carry the moment the figures were recorded, not each caller's own
    expect(recordedAt).toHaveLength(1);
    expect(a.data?.stats.fetchedAt).toBe(recordedAt[0]!.toISOString());
    expect(b.data).toEqual(a.data);
  });
});
