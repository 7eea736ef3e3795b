import { projectionSpec } from '@rank/read-store/testing/projection-spec';
import type { VolumeEvent } from './domain/volume.events';
import { volumesProjection } from './volumes.projection';

const spec = projectionSpec(volumesProjection);
const fetched: VolumeEvent = {
  type: 'KeywordVolumesFetched',
  data: {
    geoCode: 'US',
    langCode: 'en',
    source: 'dataforseo',
    currency: 'USD',
    fetchedAt: '2026-03-02T10:00:00.000Z',
    keywords: [
      {
        keyword: 'running shoes',
        avgMonthlySearches: 1500,
        competition: 'HIGH',
        competitionIndex: 87,
        cpcLow: 0.5,
        cpcHigh: 2.25,
        history: [
          { year: 2026, month: 1, value: 1000 },
          { year: 2026, month: 2, value: 2000 },
        ],
      },
      {
        keyword: 'zzqx shoes',
        avgMonthlySearches: null,
        competition: null,
        competitionIndex: null,
        cpcLow: null,
        cpcHigh: null,
        history: [],
      },
    ],
  },
};

describe('volumes projection', () => {
  it("writes each keyword's latest figures and every month of its history, versioned by log position", () => {
    spec.given([{ streamName: 'volumes-US-en', ...fetched, position: 7 }]).then([
      {
        kind: 'insert',
        table: 'keyword_volumes',
        row: {
          geo_code: 'US',
          lang_code: 'en',
          keyword: 'running shoes',
          source: 'dataforseo',
          avg_monthly_searches: 1500,
          competition: 'HIGH',
          competition_index: 87,
          cpc_low: 0.5,
          cpc_high: 2.25,
          currency: 'USD',
          history_years: [2026, 2026],
          history_months: [1, 2],
          history_values: [1000, 2000],
          fetched_at: Date.parse('2026-03-02T10:00:00.000Z'),
          version: 7,
        },
      },
      {
        kind: 'insert',
        table: 'keyword_volume_months',
        row: { geo_code: 'US', lang_code: 'en', keyword: 'running shoes', year: 2026, month: 1, value: 1000, version: 7 },
      },
      {
        kind: 'insert',
        table: 'keyword_volume_months',
        row: { geo_code: 'US', lang_code: 'en', keyword: 'running shoes', year: 2026, month: 2, value: 2000, version: 7 },
      },
      {
        kind: 'insert',
        table: 'keyword_volumes',
        row: {
          geo_code: 'US',
          lang_code: 'en',
          keyword: 'zzqx shoes',
          source: 'dataforseo',
          avg_monthly_searches: null,
          competition: null,
          competition_index: null,
          cpc_low: null,
          cpc_high: null,
          currency: 'USD',
          history_years: [],
          history_months: [],
          history_values: [],
          fetched_at: Date.parse('2026-03-02T10:00:00.000Z'),
          version: 7,
        },
      },
    ]);
  });

  it('keeps the last good figures when a fetch fails', () => {
    spec
      .given([
        {
          streamName: 'volumes-US-en',
          type: 'KeywordVolumesFetchFailed',
          data: {
            geoCode: 'US',
            langCode: 'en',
            source: 'dataforseo',
            keywords: ['running shoes'],
            reason: 'timeout',
            attempts: 5,
            failedAt: '2026-03-02T10:00:00.000Z',
          },
        },
      ])
      .thenNothing();
  });

  it("reads no other context's events", () => {
    spec
      .given([{ streamName: 'project-p1', type: 'KeywordsAdded', data: { keywords: [], addedAt: '2026-03-02T10:00:00.000Z' } }])
      .thenNothing();
  });
});
