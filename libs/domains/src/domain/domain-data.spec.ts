import { foldEvents } from '@rank/domain/decider';
import { deciderSpec } from '@rank/domain/testing/decider-spec';
import { domainDataDecider, fetchRecordOf } from './domain-data';
import type { DomainDataEvent } from './domain-data.events';

const now = new Date('2026-03-01T10:00:00.000Z');
const spec = deciderSpec(domainDataDecider, now);

type FetchFailed = Extract<DomainDataEvent, { type: 'DomainDataFetchFailed' }>;

const failed = (attempt: number, failedAt = '2026-02-28T10:00:00.000Z'): FetchFailed => ({
  type: 'DomainDataFetchFailed',
  data: {
    domain: 'example.com',
    kind: 'traffic',
    target: 'example.com',
    reason: 'similarweb: HTTP 503',
    failedAt,
    attempt,
    origin: 'background',
  },
});

describe('domain data decider', () => {
  it('records fetched traffic at the moment it is recorded', () => {
    spec
      .given([])
      .when({ type: 'RecordTraffic', domain: 'example.com', months: [] })
      .then([{ type: 'DomainTrafficFetched', data: { domain: 'example.com', fetchedAt: now.toISOString(), months: [] } }]);
  });

  it('numbers the failures of one fetch since its last success, and the tries of its background round, so retries back off', () => {
    const failure = {
      type: 'RecordFetchFailure',
      domain: 'example.com',
      kind: 'traffic',
      target: 'example.com',
      reason: 'similarweb: HTTP 503',
      origin: 'retry',
    } as const;
    const recorded = (attempt: number, origin: 'background' | 'retry' | 'request', round?: number): FetchFailed => ({
      type: 'DomainDataFetchFailed',
      data: { ...failed(attempt).data, failedAt: now.toISOString(), origin, ...(round === undefined ? {} : { round }) },
    });
    spec
      .given([failed(1), failed(2)])
      .when(failure)
      .then([recorded(3, 'retry', 3)]);
    const success: DomainDataEvent = {
      type: 'DomainTrafficFetched',
      data: { domain: 'example.com', fetchedAt: '2026-02-28T11:00:00.000Z', months: [] },
    };
    spec
      .given([failed(1), failed(2), success])
      .when(failure)
      .then([recorded(1, 'retry', 1)]);
    // A trigger's fetch starts a round of its own, whatever failed before it.
    spec
      .given([failed(1), failed(2)])
      .when({ ...failure, origin: 'background' })
      .then([recorded(3, 'background', 1)]);
    // A request's failure is numbered, and is no try of a round: the next retry continues the round.
    spec
      .given([failed(1), failed(2)])
      .when({ ...failure, origin: 'request' })
      .then([recorded(3, 'request')]);
    spec
      .given([failed(1), failed(2), recorded(3, 'request')])
      .when(failure)
      .then([recorded(4, 'retry', 3)]);
  });

  it('keeps when each target last succeeded, apart per kind and URL', () => {
    const state = foldEvents(domainDataDecider, [
      {
        type: 'DomainPageSpeedMeasured',
        data: {
          domain: 'example.com',
          url: 'https://example.com/',
          level: 'domain',
          measuredAt: '2026-02-01T00:00:00.000Z',
          figures: {} as never,
        },
      },
      failed(1),
    ]);
    expect(fetchRecordOf(state, 'pagespeed', 'https://example.com/')).toEqual({
      lastSuccessAt: Date.parse('2026-02-01T00:00:00.000Z'),
      failures: 0,
      round: 0,
    });
    expect(fetchRecordOf(state, 'traffic', 'example.com')).toEqual({ lastSuccessAt: null, failures: 1, round: 1 });
    expect(fetchRecordOf(state, 'pagespeed', 'https://example.com/other')).toEqual({ lastSuccessAt: null, failures: 0, round: 0 });
  });

  it("given the home page measured as the domain's snapshot, still has it to measure as a ranking page, and the reverse", () => {
    // The speed audit: the snapshot counted as the page's measurement, so a ranking home page never
    // got its page-level record and pages-pagespeed left it out.
    const measured = (level: 'domain' | 'page'): DomainDataEvent => ({
      type: 'DomainPageSpeedMeasured',
      data: { domain: 'example.com', url: 'https://example.com/', level, measuredAt: '2026-02-01T00:00:00.000Z', figures: {} as never },
    });
    const never = { lastSuccessAt: null, failures: 0, round: 0 };
    const fresh = { lastSuccessAt: Date.parse('2026-02-01T00:00:00.000Z'), failures: 0, round: 0 };
    const afterSnapshot = foldEvents(domainDataDecider, [measured('domain')]);
    expect(fetchRecordOf(afterSnapshot, 'pagespeed', 'https://example.com/', 'page')).toEqual(never);
    expect(fetchRecordOf(afterSnapshot, 'pagespeed', 'https://example.com/', 'domain')).toEqual(fresh);
    const afterPage = foldEvents(domainDataDecider, [measured('page')]);
    expect(fetchRecordOf(afterPage, 'pagespeed', 'https://example.com/', 'page')).toEqual(fresh);
    expect(fetchRecordOf(afterPage, 'pagespeed', 'https://example.com/')).toEqual(never);
  });
});
