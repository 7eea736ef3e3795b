import { assertNever } from '@rank/domain/domain-error';
import { parseEvent } from '@rank/domain/domain-event';
import type { RecordedEvent } from '@rank/event-store/event-store.port';
import type { Projection, ReadModelChange } from '@rank/read-store/projection';
import { DOMAIN_DATA_EVENT_TYPES, DomainDataEvent } from './domain/domain-data.events';
import { engagementOf, lastTwelveMonths, totalVisitsOf } from './domain/traffic-figures';

export const DOMAIN_DATA_TABLES = ['domain_traffic', 'page_speed', 'crux_history'] as const;

/** Traffic, page-speed records and CrUX series from the domain streams: each row is its target's latest fetch. */
export const domainDataProjection: Projection = {
  name: 'domain-data',
  tables: DOMAIN_DATA_TABLES,
  eventTypes: DOMAIN_DATA_EVENT_TYPES,
  project(event: RecordedEvent): ReadModelChange[] {
    const e = parseEvent<DomainDataEvent>(event, DOMAIN_DATA_EVENT_TYPES);
    if (!e) return [];
    const version = event.position;
    switch (e.type) {
      case 'DomainTrafficFetched': {
        const months = lastTwelveMonths(e.data.months);
        return [
          {
            kind: 'insert',
            table: 'domain_traffic',
            row: {
              domain: e.data.domain,
              fetched_at: Date.parse(e.data.fetchedAt),
              months: months.map((m) => m.month),
              visits: months.map((m) => m.visits),
              total_visits: totalVisitsOf(months),
              bounce_rate: engagementOf(months, (m) => m.bounceRate),
              avg_visit_duration: engagementOf(months, (m) => m.avgVisitDuration),
              has_data: months.length > 0 ? 1 : 0,
              version,
            },
          },
        ];
      }
      case 'DomainPageSpeedMeasured': {
        const f = e.data.figures;
        return [
          {
            kind: 'insert',
            table: 'page_speed',
            row: {
              domain: e.data.domain,
              level: e.data.level,
              url: e.data.url,
              source: f.source,
              measured_at: Date.parse(e.data.measuredAt),
              performance_score: f.performanceScore,
              accessibility_score: f.accessibilityScore,
              best_practices_score: f.bestPracticesScore,
              seo_score: f.seoScore,
              largest_contentful_paint: f.largestContentfulPaint,
              first_contentful_paint: f.firstContentfulPaint,
              total_blocking_time: f.totalBlockingTime,
              cumulative_layout_shift: f.cumulativeLayoutShift,
              has_field_data: f.cruxFieldData ? 1 : 0,
              field_lcp_p75: f.cruxFieldData?.LCP.p75 ?? null,
              field_cls_p75: f.cruxFieldData?.CLS.p75 ?? null,
              field_inp_p75: f.cruxFieldData?.INP.p75 ?? null,
              crux_score: f.cruxScore,
              version,
            },
          },
        ];
      }
      case 'DomainCruxHistoryFetched': {
        const points = [...e.data.points].sort((a, b) => a.date.localeCompare(b.date));
        return [
          {
            kind: 'insert',
            table: 'crux_history',
            row: {
              domain: e.data.domain,
              target: e.data.target,
              url: e.data.url,
              fetched_at: Date.parse(e.data.fetchedAt),
              dates: points.map((p) => p.date),
              lcp_p75: points.map((p) => p.lcp),
              cls_p75: points.map((p) => p.cls),
              inp_p75: points.map((p) => p.inp),
              version,
            },
          },
        ];
      }
      case 'DomainDataFetchFailed':
        // A failure never replaces data: what was fetched before stays served until it is stale.
        return [];
      default:
        return assertNever(e);
    }
  },
};
