import { assertNever } from '@rank/domain/domain-error';
import { parseEvent } from '@rank/domain/domain-event';
import type { RecordedEvent } from '@rank/event-store/event-store.port';
import type { Projection, ReadModelChange } from '@rank/read-store/projection';
import { DOMAIN_DATA_EVENT_TYPES, DomainDataEvent, TrafficMonth } from './domain/domain-data.events';

export const DOMAIN_DATA_TABLES = ['domain_traffic', 'page_speed', 'crux_history'] as const;

/** The last 12 months at most, oldest first: the spec's traffic history. */
const MAX_MONTHS = 12;

/**
 * A period's engagement as one figure: the months' values weighted by their visits (a month of
 * 10 million visits says more than one of ten), or their plain mean when no month has visits.
 */
function engagement(months: readonly TrafficMonth[], pick: (m: TrafficMonth) => number | null): number | null {
  const known = months.filter((m) => pick(m) !== null);
  if (known.length === 0) return null;
  const weight = known.reduce((sum, m) => sum + (m.visits ?? 0), 0);
  if (weight === 0) return known.reduce((sum, m) => sum + pick(m)!, 0) / known.length;
  return known.reduce((sum, m) => sum + pick(m)! * (m.visits ?? 0), 0) / weight;
}

/** Traffic, page-speed records and CrUX series from the domain streams: each row is its target's latest fetch. */
export const domainDataProjection: Projection = {
  name: 'domain-data',
  tables: DOMAIN_DATA_TABLES,
  project(event: RecordedEvent): ReadModelChange[] {
    const e = parseEvent<DomainDataEvent>(event, DOMAIN_DATA_EVENT_TYPES);
    if (!e) return [];
    const version = event.position;
    switch (e.type) {
      case 'DomainTrafficFetched': {
        const months = [...e.data.months].sort((a, b) => a.month.localeCompare(b.month)).slice(-MAX_MONTHS);
        return [{
          kind: 'insert', table: 'domain_traffic', row: {
            domain: e.data.domain, fetched_at: Date.parse(e.data.fetchedAt),
            months: months.map((m) => m.month), visits: months.map((m) => m.visits),
            total_visits: months.reduce((sum, m) => sum + (m.visits ?? 0), 0),
            bounce_rate: engagement(months, (m) => m.bounceRate), avg_visit_duration: engagement(months, (m) => m.avgVisitDuration),
            has_data: months.length > 0 ? 1 : 0, version,
          },
        }];
      }
      case 'DomainPageSpeedMeasured': {
        const f = e.data.figures;
        return [{
          kind: 'insert', table: 'page_speed', row: {
            domain: e.data.domain, level: e.data.level, url: e.data.url, source: f.source, measured_at: Date.parse(e.data.measuredAt),
            performance_score: f.performanceScore, accessibility_score: f.accessibilityScore, best_practices_score: f.bestPracticesScore,
            seo_score: f.seoScore, largest_contentful_paint: f.largestContentfulPaint, first_contentful_paint: f.firstContentfulPaint,
            total_blocking_time: f.totalBlockingTime, cumulative_layout_shift: f.cumulativeLayoutShift,
            has_field_data: f.cruxFieldData ? 1 : 0, field_lcp_p75: f.cruxFieldData?.LCP.p75 ?? null,
            field_cls_p75: f.cruxFieldData?.CLS.p75 ?? null, field_inp_p75: f.cruxFieldData?.INP.p75 ?? null,
            crux_score: f.cruxScore, version,
          },
        }];
      }
      case 'DomainCruxHistoryFetched': {
        const points = [...e.data.points].sort((a, b) => a.date.localeCompare(b.date));
        return [{
          kind: 'insert', table: 'crux_history', row: {
            domain: e.data.domain, target: e.data.target, url: e.data.url, fetched_at: Date.parse(e.data.fetchedAt),
            dates: points.map((p) => p.date), lcp_p75: points.map((p) => p.lcp), cls_p75: points.map((p) => p.cls), inp_p75: points.map((p) => p.inp),
            version,
          },
        }];
      }
      case 'DomainDataFetchFailed':
        // A failure never replaces data: what was fetched before stays served until it is stale.
        return [];
      default:
        return assertNever(e);
    }
  },
};
