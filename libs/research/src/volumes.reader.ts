import { Inject, Injectable } from '@nestjs/common';
import { READ_STORE } from '@rank/platform/tokens';
import type { ReadStore } from '@rank/read-store/read-store.port';
import type { Competition, Market, MonthlySearches, VolumeSource } from './domain/volume.events';
import { marketKey } from './domain/volume.events';

/** A keyword's stored figures in one market: the latest fetch. */
export interface StoredVolume extends Market {
  keyword: string;
  source: VolumeSource;
  avgMonthlySearches: number | null;
  competition: Competition | null;
  competitionIndex: number | null;
  cpcLow: number | null;
  cpcHigh: number | null;
  currency: string;
  /** The months of the latest fetch, oldest first. */
  history: MonthlySearches[];
  /** ISO 8601. */
  fetchedAt: string;
}

/** Whether the provider knew anything about the keyword (a fetched keyword may have no data at all). */
export const hasData = (v: StoredVolume) => v.avgMonthlySearches !== null || v.history.length > 0;

interface VolumeRow {
  geoCode: string;
  langCode: string;
  keyword: string;
  source: VolumeSource;
  avgMonthlySearches: number | null;
  competition: Competition | null;
  competitionIndex: number | null;
  cpcLow: number | null;
  cpcHigh: number | null;
  currency: string;
  years: number[];
  months: number[];
  values: number[];
  fetchedAtMs: string;
}

const VOLUME_COLUMNS = `geo_code AS geoCode, lang_code AS langCode, keyword, source, avg_monthly_searches AS avgMonthlySearches,
  competition, competition_index AS competitionIndex, cpc_low AS cpcLow, cpc_high AS cpcHigh, currency,
  history_years AS years, history_months AS months, history_values AS values, toString(toUnixTimestamp64Milli(fetched_at)) AS fetchedAtMs`;

function toStoredVolume(row: VolumeRow): StoredVolume {
  return {
    geoCode: row.geoCode,
    langCode: row.langCode,
    keyword: row.keyword,
    source: row.source,
    avgMonthlySearches: row.avgMonthlySearches,
    competition: row.competition,
    competitionIndex: row.competitionIndex,
    cpcLow: row.cpcLow,
    cpcHigh: row.cpcHigh,
    currency: row.currency,
    history: row.years.map((year, i) => ({ year, month: row.months[i]!, value: row.values[i]! })),
    fetchedAt: new Date(Number(row.fetchedAtMs)).toISOString(),
  };
}

/** A keyword of a market, as asked for. */
export interface MarketKeyword extends Market {
  keyword: string;
}

/** Reads `keyword_volumes` and `keyword_volume_months` (migration 007). */
@Injectable()
export class VolumesReader {
  constructor(@Inject(READ_STORE) private readonly store: ReadStore) {}

  /** The stored figures of the keywords asked for (one query per market; a project has few); absent keywords are left out. */
  async latest(keywords: readonly MarketKeyword[]): Promise<StoredVolume[]> {
    const byMarket = new Map<string, { market: Market; texts: Set<string> }>();
    for (const k of keywords) {
      const entry = byMarket.get(marketKey(k)) ?? { market: { geoCode: k.geoCode, langCode: k.langCode }, texts: new Set<string>() };
      entry.texts.add(k.keyword);
      byMarket.set(marketKey(k), entry);
    }
    const found: StoredVolume[] = [];
    for (const { market, texts } of byMarket.values()) {
      const rows = await this.store.query<VolumeRow>(
        `SELECT ${VOLUME_COLUMNS} FROM keyword_volumes FINAL
         WHERE geo_code = {geoCode:String} AND lang_code = {langCode:String} AND keyword IN {keywords:Array(String)}`,
        { geoCode: market.geoCode, langCode: market.langCode, keywords: [...texts] },
      );
      found.push(...rows.map(toStoredVolume));
    }
    return found;
  }

  /** Every month ever stored for the keyword, oldest first. */
  async history(keyword: MarketKeyword): Promise<MonthlySearches[]> {
    return this.store.query<MonthlySearches>(
      `SELECT year, month, value FROM keyword_volume_months FINAL
       WHERE geo_code = {geoCode:String} AND lang_code = {langCode:String} AND keyword = {keyword:String}
       ORDER BY year, month`,
      { geoCode: keyword.geoCode, langCode: keyword.langCode, keyword: keyword.keyword },
    );
  }

  /**
   * The distinct keywords tracked by any project whose volumes were never fetched or were fetched
   * before `fetchedBefore`: the monthly refresh's work (and anything a stopped fetcher missed).
   */
  async staleTracked(fetchedBefore: Date, limit: number): Promise<MarketKeyword[]> {
    return this.store.query<MarketKeyword>(
      `SELECT DISTINCT k.geo_code AS geoCode, k.lang_code AS langCode, k.value AS keyword
       FROM (SELECT geo_code, lang_code, value FROM keywords FINAL WHERE is_deleted = 0) AS k
       LEFT JOIN (SELECT geo_code, lang_code, keyword, fetched_at FROM keyword_volumes FINAL) AS v
         ON v.geo_code = k.geo_code AND v.lang_code = k.lang_code AND v.keyword = k.value
       WHERE v.keyword = '' OR v.fetched_at < {fetchedBefore:DateTime64(3, 'UTC')}
       ORDER BY geoCode, langCode, keyword
       LIMIT {limit:UInt32}`,
      { fetchedBefore, limit },
    );
  }
}
