import { assertNever } from '@rank/domain/domain-error';
import { parseEvent } from '@rank/domain/domain-event';
import type { RecordedEvent } from '@rank/event-store/event-store.port';
import { Projection, ReadModelChange } from '@rank/read-store/projection';
import { VOLUME_EVENT_TYPES, VolumeEvent } from './domain/volume.events';

export const VOLUME_TABLES = ['keyword_volumes', 'keyword_volume_months'] as const;

/** Keyword volumes and their monthly history from the volumes streams (market data: no project deletes them). */
export const volumesProjection: Projection = {
  name: 'volumes',
  tables: VOLUME_TABLES,
  eventTypes: VOLUME_EVENT_TYPES,
  project(event: RecordedEvent): ReadModelChange[] {
    const e = parseEvent<VolumeEvent>(event, VOLUME_EVENT_TYPES);
    if (!e) return [];
    const version = event.position;
    switch (e.type) {
      case 'KeywordVolumesFetched': {
        const { geoCode, langCode, source, currency } = e.data;
        const fetchedAt = Date.parse(e.data.fetchedAt);
        return e.data.keywords.flatMap((k): ReadModelChange[] => {
          const key = { geo_code: geoCode, lang_code: langCode, keyword: k.keyword };
          return [
            {
              kind: 'insert',
              table: 'keyword_volumes',
              row: {
                ...key,
                source,
                avg_monthly_searches: k.avgMonthlySearches,
                competition: k.competition,
                competition_index: k.competitionIndex,
                cpc_low: k.cpcLow,
                cpc_high: k.cpcHigh,
                currency,
                history_years: k.history.map((m) => m.year),
                history_months: k.history.map((m) => m.month),
                history_values: k.history.map((m) => m.value),
                fetched_at: fetchedAt,
                version,
              },
            },
            ...k.history.map((m) => ({
              kind: 'insert' as const,
              table: 'keyword_volume_months',
              row: { ...key, year: m.year, month: m.month, value: m.value, version },
            })),
          ];
        });
      }
      case 'KeywordVolumesFetchFailed':
        // A failure is never served as data: the last good figures stay.
        return [];
      default:
        return assertNever(e);
    }
  },
};
