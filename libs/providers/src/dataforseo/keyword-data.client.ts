import { countryLocationCode } from '@rank/domain/country-numeric-codes';
import { normaliseKeyword } from '@rank/domain/keyword-text';
import { asArray, asNumber, asObject } from '../shared/json-shape';
import type { RetryPolicy } from '../shared/retry';
import { KeywordDataError } from '../keyword-data/keyword-data-error';
import {
  KEYWORD_DATA_BATCH_SIZE,
  MAX_IDEA_SEEDS,
  type Competition,
  type IdeaOptions,
  type KeywordDataProvider,
  type KeywordFigures,
  type KeywordMarket,
  monthlyHistory,
  type MonthlyVolume,
} from '../keyword-data/keyword-data.port';
import { DATAFORSEO, DataForSeoHttp, type DataForSeoAccess } from './dataforseo-http';

export const DATAFORSEO_SEARCH_VOLUME_PATH = '/v3/keywords_data/google_ads/search_volume/live';
export const DATAFORSEO_KEYWORDS_FOR_KEYWORDS_PATH = '/v3/keywords_data/google_ads/keywords_for_keywords/live';
export const DATAFORSEO_KEYWORDS_FOR_SITE_PATH = '/v3/keywords_data/google_ads/keywords_for_site/live';

/** DataForSEO refuses the whole task when one keyword is longer than this or has more words. */
const MAX_KEYWORD_CHARS = 80;
const MAX_KEYWORD_WORDS = 10;
const DEFAULT_IDEA_LIMIT = 100;

export const DEFAULT_DATAFORSEO_RETRY: RetryPolicy = { attempts: 3, baseDelayMs: 1_000, timeoutMs: 30_000, budgetMs: 60_000 };

/**
 * DataForSEO's Google Ads keyword data (Keywords Data API, live endpoints): search volume for up
 * to 1,000 keywords a task, ideas for up to 20 seed keywords, ideas for a site. The market is
 * `location_code` (a country's Google Ads geo target, 2000 + its ISO numeric code) and
 * `language_code` (ISO 639-1).
 */
export class DataForSeoKeywordData implements KeywordDataProvider {
  readonly source = 'dataforseo' as const;
  private readonly http: DataForSeoHttp;

  constructor(access: DataForSeoAccess, retry: RetryPolicy = DEFAULT_DATAFORSEO_RETRY) {
    this.http = new DataForSeoHttp(access, retry);
  }

  /** Texts are sent normalised (trimmed, lowercased, as the service stores them and as DataForSEO would anyway). */
  async searchVolumes(market: KeywordMarket, keywords: readonly string[], signal?: AbortSignal): Promise<KeywordFigures[]> {
    const target = marketFields(market);
    const askable = [...new Set(keywords.map(normaliseKeyword))].filter(isAskable);
    const figures: KeywordFigures[] = [];
    // One task a call (live endpoints take one), in sequence: DataForSEO rate-limits live Google Ads calls.
    for (let start = 0; start < askable.length; start += KEYWORD_DATA_BATCH_SIZE) {
      const batch = askable.slice(start, start + KEYWORD_DATA_BATCH_SIZE);
      const result = await this.http.postLiveTask(
        DATAFORSEO_SEARCH_VOLUME_PATH,
        { ...target, keywords: batch, search_partners: false },
        signal,
      );
      figures.push(...itemsToFigures(result));
    }
    return figures;
  }

  async ideasForKeywords(market: KeywordMarket, seeds: readonly string[], options: IdeaOptions = {}): Promise<KeywordFigures[]> {
    const keywords = [...new Set(seeds.map(normaliseKeyword))].filter(isAskable).slice(0, MAX_IDEA_SEEDS);
    if (keywords.length === 0) return [];
    const result = await this.http.postLiveTask(
      DATAFORSEO_KEYWORDS_FOR_KEYWORDS_PATH,
      { ...marketFields(market), keywords, search_partners: false },
      options.signal,
    );
    return itemsToFigures(result).slice(0, options.limit ?? DEFAULT_IDEA_LIMIT);
  }

  async ideasForSite(market: KeywordMarket, domain: string, options: IdeaOptions = {}): Promise<KeywordFigures[]> {
    const result = await this.http.postLiveTask(
      DATAFORSEO_KEYWORDS_FOR_SITE_PATH,
      { ...marketFields(market), target: domain, target_type: 'site', search_partners: false },
      options.signal,
    );
    return itemsToFigures(result).slice(0, options.limit ?? DEFAULT_IDEA_LIMIT);
  }
}

function marketFields(market: KeywordMarket): { location_code: number; language_code: string } {
  const locationCode = countryLocationCode(market.geoCode);
  if (locationCode === undefined)
    throw new KeywordDataError(DATAFORSEO, 'http', `no location code for the country "${market.geoCode}"`, 400);
  return { location_code: locationCode, language_code: market.langCode.toLowerCase() };
}

function isAskable(keyword: string): boolean {
  return keyword !== '' && keyword.length <= MAX_KEYWORD_CHARS && keyword.split(/\s+/).length <= MAX_KEYWORD_WORDS;
}

/** The figures of an item, each a number or null (absent: null) in the docs; `competition` is text, `monthly_searches` a list. */
const NUMERIC_FIELDS = ['search_volume', 'competition_index', 'low_top_of_page_bid', 'high_top_of_page_bid', 'cpc'] as const;

/**
 * Why a result item is not in its documented shape, or undefined when it is. Such an answer is the
 * provider's malformed body (upstream_error), not a keyword without data: before, an item whose
 * keyword was not text was skipped, and a volume sent as text read as null, so a broken answer
 * passed for "no data" (and was stored so, not asked again for 30 days).
 */
function malformedItem(raw: unknown): string | undefined {
  const item = asObject(raw);
  if (!item) return 'an item that is not an object';
  if (typeof item.keyword !== 'string') return 'an item whose keyword is not text';
  for (const field of NUMERIC_FIELDS) {
    const value = item[field];
    if (value !== undefined && value !== null && typeof value !== 'number') return `an item whose ${field} is not a number`;
  }
  if (item.competition !== undefined && item.competition !== null && typeof item.competition !== 'string')
    return 'an item whose competition is not text';
  const months = item.monthly_searches;
  if (months !== undefined && months !== null && !Array.isArray(months)) return 'an item whose monthly_searches is not a list';
  return undefined;
}

/** Result items as the docs give them (a malformed one fails the answer); absent figures are null. */
function itemsToFigures(items: unknown[]): KeywordFigures[] {
  const figures: KeywordFigures[] = [];
  for (const raw of items) {
    const malformed = malformedItem(raw);
    if (malformed !== undefined) throw new KeywordDataError(DATAFORSEO, 'malformed', `the answer has ${malformed}`);
    const item = asObject(raw)!;
    figures.push({
      keyword: item.keyword as string,
      avgMonthlySearches: asNumber(item.search_volume) ?? null,
      competition: competitionOf(item.competition),
      competitionIndex: asNumber(item.competition_index) ?? null,
      cpcLow: asNumber(item.low_top_of_page_bid) ?? null,
      cpcHigh: asNumber(item.high_top_of_page_bid) ?? null,
      history: historyOf(item.monthly_searches),
    });
  }
  return figures;
}

function competitionOf(value: unknown): Competition | null {
  const level = typeof value === 'string' ? value.toUpperCase() : undefined;
  return level === 'LOW' || level === 'MEDIUM' || level === 'HIGH' ? level : null;
}

/** DataForSEO lists the newest month first; the port wants the oldest first, once each. Months without a figure are left out. */
function historyOf(value: unknown): MonthlyVolume[] {
  const months: MonthlyVolume[] = [];
  for (const raw of asArray(value) ?? []) {
    const entry = asObject(raw);
    const year = asNumber(entry?.year);
    const month = asNumber(entry?.month);
    const searches = asNumber(entry?.search_volume);
    if (year !== undefined && month !== undefined && month >= 1 && month <= 12 && searches !== undefined)
      months.push({ year, month, value: searches });
  }
  return monthlyHistory(months);
}
