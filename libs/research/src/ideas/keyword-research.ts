import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import { isCountryCode, isLanguageCode } from '@rank/domain/iso-codes';
import { normaliseKeyword } from '@rank/domain/keyword-text';
import { keywordDataFailureOf } from '@rank/providers/keyword-data/keyword-data-error';
import { averageMonthlySearches, twelveMonthTrend } from '../domain/twelve-months';
import type { Competition } from '../domain/volume.events';
import { KEYWORD_DATA_PROVIDER, KeywordDataProvider } from '../keyword-data-providers';
import { byVolume, RESEARCH_TIMEOUT, RESEARCH_TIMEOUT_MS } from './keyword-ideas';
import { withTimeout } from './with-timeout';
import { characterCount } from '@rank/domain/text-length';

export const SEED_MAX_LENGTH = 80;
export const RESEARCH_LIMIT_MAX = 100;
export const RESEARCH_LIMIT_DEFAULT = 50;

export interface ResearchRequest {
  keyword?: unknown;
  geo?: unknown;
  lang?: unknown;
  limit: number;
}

export interface ResearchedKeyword {
  keyword: string;
  avgMonthlySearches: number | null;
  competition: Competition | null;
  competitionIndex: number | null;
  cpcLow: number | null;
  cpcHigh: number | null;
  /** 12 numbers, oldest first. */
  trend: number[];
}

export type ResearchAnswer =
  | { success: true; keyword: string; geo: string; lang: string; source: string; keywords: ResearchedKeyword[] }
  | { success: false; message: string };

const failed = (message: string): ResearchAnswer => ({ success: false, message });

/**
 * Keyword research from a seed: the provider's related keywords with their figures, highest volume
 * first. Every expected failure (bad seed, unsupported country or language, no provider, an upstream
 * error or timeout) is an answer with a message, never an exception.
 */
@Injectable()
export class KeywordResearch {
  private readonly logger = new Logger('KeywordResearch');

  constructor(
    @Optional() @Inject(KEYWORD_DATA_PROVIDER) private readonly provider: KeywordDataProvider | null = null,
    @Optional() @Inject(RESEARCH_TIMEOUT) private readonly timeoutMs: number = RESEARCH_TIMEOUT_MS,
  ) {}

  async research(request: ResearchRequest): Promise<ResearchAnswer> {
    const seed = typeof request.keyword === 'string' ? normaliseKeyword(request.keyword) : '';
    if (!seed || characterCount(seed) > SEED_MAX_LENGTH)
      return failed(`keyword must be a seed keyword of 1 to ${SEED_MAX_LENGTH} characters`);
    const geo = request.geo === undefined ? 'US' : typeof request.geo === 'string' ? request.geo.trim().toUpperCase() : '';
    if (!isCountryCode(geo) || geo.length !== 2)
      return failed('geo is not a supported country: send an ISO 3166-1 alpha-2 code such as US');
    const lang = request.lang === undefined ? 'en' : typeof request.lang === 'string' ? request.lang.trim().toLowerCase() : '';
    if (!isLanguageCode(lang) || lang.length !== 2) return failed('lang is not a supported language: send an ISO 639-1 code such as en');
    const provider = this.provider;
    if (!provider)
      return failed(
        'Keyword research needs a keyword-data provider, and none is configured (DATAFORSEO_LOGIN and DATAFORSEO_PASSWORD, or the GOOGLE_ADS_* variables)',
      );
    try {
      const figures = await withTimeout(
        // The provider's own order is by relevance: ask for the most, sort by volume, then cut.
        (signal) => provider.ideasForKeywords({ geoCode: geo, langCode: lang }, [seed], { limit: RESEARCH_LIMIT_MAX, signal }),
        this.timeoutMs,
        provider.source,
      );
      const byText = new Map<string, ResearchedKeyword>();
      for (const f of figures) {
        const keyword = normaliseKeyword(f.keyword);
        if (!keyword || byText.has(keyword)) continue;
        byText.set(keyword, {
          keyword,
          avgMonthlySearches: averageMonthlySearches(f),
          competition: f.competition,
          competitionIndex: f.competitionIndex,
          cpcLow: f.cpcLow,
          cpcHigh: f.cpcHigh,
          trend: twelveMonthTrend(f.history),
        });
      }
      return {
        success: true,
        keyword: seed,
        geo,
        lang,
        source: provider.source,
        keywords: [...byText.values()].sort(byVolume).slice(0, request.limit),
      };
    } catch (error) {
      const failure = keywordDataFailureOf(error);
      this.logger.warn(
        `keyword research from ${provider.source} failed (${failure}): ${error instanceof Error ? error.message : String(error)}`,
      );
      return failed(
        failure === 'unavailable'
          ? `The keyword-data provider could not be reached or did not answer within ${Math.round(this.timeoutMs / 1000)} seconds; try again later`
          : 'The keyword-data provider answered with an error; try again later',
      );
    }
  }
}
