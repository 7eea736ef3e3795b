import { projectionSpec } from '@rank/read-store/testing/projection-spec';
import { domainDataProjection } from './domain-data.projection';
import { PageSpeedFigures } from './domain/domain-data.events';

const spec = projectionSpec(domainDataProjection);
const stream = 'domain-example.com';

const figures: PageSpeedFigures = {
  source: 'psi',
  performanceScore: 91,
  accessibilityScore: 88,
  bestPracticesScore: 100,
  seoScore: 92,
  largestContentfulPaint: 1800,
  firstContentfulPaint: 900,
  totalBlockingTime: 120,
  cumulativeLayoutShift: 0.04,
  cruxFieldData: { LCP: { p75: 2300 }, CLS: { p75: 0.12 }, INP: { p75: 180 } },
  cruxScore: 67,
};

describe('domain data projection', () => {
  it('writes the traffic of the last 12 months oldest first, their total and visit-weighted engagement', () => {
    const year2025 = Array.from({ length: 12 }, (_, i) => ({
      month: `2025-${String(i + 1).padStart(2, '0')}`,
      visits: 100,
      bounceRate: 0.5,
      avgVisitDuration: 60,
    }));
    const months = [...year2025, { month: '2026-01', visits: 300, bounceRate: 0.2, avgVisitDuration: 60 }].reverse();
    const changes = spec
      .given([
        {
          streamName: stream,
          type: 'DomainTrafficFetched',
          data: { domain: 'example.com', fetchedAt: '2026-02-03T04:05:06.000Z', months },
        },
      ])
      .changes();
    expect(changes).toHaveLength(1);
    const row = (changes[0] as { row: Record<string, unknown> }).row;
    expect(row.months).toEqual([
      '2025-02',
      '2025-03',
      '2025-04',
      '2025-05',
      '2025-06',
      '2025-07',
      '2025-08',
      '2025-09',
      '2025-10',
      '2025-11',
      '2025-12',
      '2026-01',
    ]);
    expect(row.total_visits).toBe(11 * 100 + 300);
    // (11 × 100 × 0.5 + 300 × 0.2) / 1400
    expect(row.bounce_rate).toBeCloseTo((550 + 60) / 1400, 10);
    expect(row).toMatchObject({
      domain: 'example.com',
      fetched_at: Date.parse('2026-02-03T04:05:06.000Z'),
      avg_visit_duration: 60,
      has_data: 1,
      version: 1,
    });
  });

  it('writes an answer without data as a cached row without data', () => {
    spec
      .given([
        {
          streamName: stream,
          type: 'DomainTrafficFetched',
          data: { domain: 'example.com', fetchedAt: '2026-02-03T00:00:00.000Z', months: [] },
        },
      ])
      .then([
        {
          kind: 'insert',
          table: 'domain_traffic',
          row: {
            domain: 'example.com',
            fetched_at: Date.parse('2026-02-03T00:00:00.000Z'),
            months: [],
            visits: [],
            total_visits: 0,
            bounce_rate: null,
            avg_visit_duration: null,
            has_data: 0,
            version: 1,
          },
        },
      ]);
  });

  it('writes a page-speed record with its field data flattened', () => {
    spec
      .given([
        {
          streamName: stream,
          type: 'DomainPageSpeedMeasured',
          data: { domain: 'example.com', url: 'https://example.com/', level: 'domain', measuredAt: '2026-02-03T00:00:00.000Z', figures },
        },
      ])
      .then([
        {
          kind: 'insert',
          table: 'page_speed',
          row: {
            domain: 'example.com',
            level: 'domain',
            url: 'https://example.com/',
            source: 'psi',
            measured_at: Date.parse('2026-02-03T00:00:00.000Z'),
            performance_score: 91,
            accessibility_score: 88,
            best_practices_score: 100,
            seo_score: 92,
            largest_contentful_paint: 1800,
            first_contentful_paint: 900,
            total_blocking_time: 120,
            cumulative_layout_shift: 0.04,
            has_field_data: 1,
            field_lcp_p75: 2300,
            field_cls_p75: 0.12,
            field_inp_p75: 180,
            crux_score: 67,
            version: 1,
          },
        },
      ]);
  });

  it('writes a CrUX series oldest first, and nothing for a failed fetch', () => {
    spec
      .given([
        {
          streamName: stream,
          type: 'DomainCruxHistoryFetched',
          data: {
            domain: 'example.com',
            target: 'origin',
            url: 'https://example.com',
            fetchedAt: '2026-02-03T00:00:00.000Z',
            points: [
              { date: '2026-01-24', lcp: 2100, cls: 0.05, inp: null },
              { date: '2026-01-17', lcp: 2500, cls: 0.1, inp: 150 },
            ],
          },
        },
        {
          streamName: stream,
          type: 'DomainDataFetchFailed',
          data: {
            domain: 'example.com',
            kind: 'crux',
            target: 'https://example.com',
            reason: 'crux-history: HTTP 503',
            failedAt: '2026-02-04T00:00:00.000Z',
            attempt: 1,
            origin: 'background',
          },
        },
      ])
      .then([
        {
          kind: 'insert',
          table: 'crux_history',
          row: {
            domain: 'example.com',
            target: 'origin',
            url: 'https://example.com',
            fetched_at: Date.parse('2026-02-03T00:00:00.000Z'),
            dates: ['2026-01-17', '2026-01-24'],
            lcp_p75: [2500, 2100],
            cls_p75: [0.1, 0.05],
            inp_p75: [150, null],
            version: 1,
          },
        },
      ]);
  });

  it("reads no other context's events", () => {
    spec
      .given([
        {
          streamName: 'workspace-a',
          type: 'FolderCreated',
          data: { folderId: 'f', name: 'x', position: 0, createdAt: '2026-01-01T00:00:00.000Z' },
        },
      ])
      .thenNothing();
  });
});
