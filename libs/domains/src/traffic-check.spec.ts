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

describe('TrafficCheck: a provider that answers late', () => {
  it('answers without its part once the wait is over, and records the part when it comes', async () => {
    // Before, a Lighthouse run of up to 90 s held the answer past the 60 s of the MCP client and of proxies.
    const clock = { now: () => new Date('2026-03-15T12:00:00.000Z') };
    let measured!: (value: unknown) => void;
    const providers = {
      traffic: {
        configured: true,
        monthlyTraffic: async () => ({ months: [{ month: '2026-02', visits: 100, bounceRate: 0.5, avgVisitDuration: 60 }] }),
      },
      pageSpeed: { measure: () => new Promise((resolve) => (measured = resolve)) },
    } as unknown as DomainDataProviders;
    const recorded: string[] = [];
    const repository = { record: async (command: { type: string }) => void recorded.push(command.type) } as unknown as DomainDataRepository;
    const reader = { traffic: async () => [], pageSpeedOfDomains: async () => [] } as unknown as DomainDataReader;
    const allowances = { count: async () => undefined } as unknown as NewDomainAllowances;
    const check = new TrafficCheck(reader, new DomainDataFetcher(providers, repository, clock), allowances, clock);

    const answer = await check.check('a1', 'shop.example', 50);
    expect(answer.pagespeed).toBeNull();
    expect(answer.data?.stats.totalVisits).toBe(100);
    expect(recorded).toEqual(['RecordTraffic']);

    measured({
      source: 'psi',
      performanceScore: 90,
      accessibilityScore: 90,
      bestPracticesScore: 90,
      seoScore: 90,
      largestContentfulPaint: 1000,
      firstContentfulPaint: 500,
      totalBlockingTime: 10,
      cumulativeLayoutShift: 0.01,
      cruxFieldData: null,
      cruxScore: null,
    });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(recorded).toEqual(['RecordTraffic', 'RecordPageSpeed']);
  });
});
