import { foldEvents } from '@rank/domain/decider';
import { deciderSpec } from '@rank/domain/testing/decider-spec';
import { domainDataDecider, fetchRecordOf } from './domain-data';
import type { DomainDataEvent } from './domain-data.events';

const now = new Date('2026-03-01T10:00:00.000Z');
const spec = deciderSpec(domainDataDecider, now);

const failed = (attempt: number, failedAt = '2026-02-28T10:00:00.000Z'): DomainDataEvent => ({
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

  it('numbers the failures of one fetch since its last success, so retries back off', () => {
    const failure = {
      type: 'RecordFetchFailure',
      domain: 'example.com',
      kind: 'traffic',
      target: 'example.com',
      reason: 'similarweb: HTTP 503',
      origin: 'background',
    } as const;
    spec
      .given([failed(1), failed(2)])
      .when(failure)
      .then([{ type: 'DomainDataFetchFailed', data: { ...failed(3).data, failedAt: now.toISOString() } } as DomainDataEvent]);
    const success: DomainDataEvent = {
      type: 'DomainTrafficFetched',
      data: { domain: 'example.com', fetchedAt: '2026-02-28T11:00:00.000Z', months: [] },
    };
    spec
      .given([failed(1), failed(2), success])
      .when(failure)
      .then([{ type: 'DomainDataFetchFailed', data: { ...failed(1).data, failedAt: now.toISOString() } } as DomainDataEvent]);
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
    });
    expect(fetchRecordOf(state, 'traffic', 'example.com')).toEqual({ lastSuccessAt: null, failures: 1 });
    expect(fetchRecordOf(state, 'pagespeed', 'https://example.com/other')).toEqual({ lastSuccessAt: null, failures: 0 });
  });
});
