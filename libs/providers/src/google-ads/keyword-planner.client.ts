import { countryLocationCode } from '@rank/domain/country-numeric-codes';
import { normaliseKeyword } from '@rank/domain/keyword-text';
import { fetchJson, upstreamMessage } from '../shared/fetch-json';
import { asArray, asNumber, asObject } from '../shared/json-shape';
import { withRetry, type RetryPolicy } from '../shared/retry';
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
import type { GoogleAdsConfig } from '../keyword-data/keyword-data-config';
import { googleAdsLanguageConstant } from './google-ads-languages';
import { OAuthAccessToken } from './oauth-access-token';

const PROVIDER = 'google-ads';
/** The Google Ads API version the REST paths use (the latest active one when this was written). */
export const GOOGLE_ADS_API_VERSION = 'v26';
const DEFAULT_IDEA_LIMIT = 100;

export const DEFAULT_GOOGLE_ADS_RETRY: RetryPolicy = { attempts: 3, baseDelayMs: 1_000, timeoutMs: 30_000, budgetMs: 60_000 };

export const historicalMetricsPath = (customerId: string) =>
  `/${GOOGLE_ADS_API_VERSION}/customers/${customerId}:generateKeywordHistoricalMetrics`;
export const keywordIdeasPath = (customerId: string) => `/${GOOGLE_ADS_API_VERSION}/customers/${customerId}:generateKeywordIdeas`;

const MONTHS = ['JANUARY', 'FEBRUARY', 'MARCH', 'APRIL', 'MAY', 'JUNE', 'JULY', 'AUGUST', 'SEPTEMBER', 'OCTOBER', 'NOVEMBER', 'DECEMBER'];

/**
 * Keyword Planner figures from the operator's own Google Ads account: the REST form of
 * KeywordPlanIdeaService (generateKeywordHistoricalMetrics, generateKeywordIdeas), with an OAuth
 * access token from the refresh token and the developer token. Bids come in micros of the
 * account's currency; the figures are USD only when the account bills in USD (README).
 */
export class GoogleAdsKeywordData implements KeywordDataProvider {
  readonly source = 'google-ads' as const;
  private readonly token: OAuthAccessToken;

  constructor(
    private readonly config: GoogleAdsConfig,
    private readonly retry: RetryPolicy = DEFAULT_GOOGLE_ADS_RETRY,
  ) {
    this.token = new OAuthAccessToken({ ...config, timeoutMs: Math.min(retry.timeoutMs, 10_000) }, PROVIDER);
  }

  async searchVolumes(market: KeywordMarket, keywords: readonly string[], signal?: AbortSignal): Promise<KeywordFigures[]> {
    const targeting = targetingOf(market);
    const texts = [...new Set(keywords.map(normaliseKeyword))].filter((text) => text !== '');
    const figures: KeywordFigures[] = [];
    for (let start = 0; start < texts.length; start += KEYWORD_DATA_BATCH_SIZE) {
      const batch = texts.slice(start, start + KEYWORD_DATA_BATCH_SIZE);
      const body = await this.post(
        historicalMetricsPath(this.config.customerId),
        { ...targeting, keywords: batch, historicalMetricsOptions: { includeAverageCpc: true } },
        signal,
      );
      figures.push(...historicalFigures(body, new Set(batch)));
    }
    return figures;
  }

  async ideasForKeywords(market: KeywordMarket, seeds: readonly string[], options: IdeaOptions = {}): Promise<KeywordFigures[]> {
    const keywords = [...new Set(seeds.map(normaliseKeyword))].filter((text) => text !== '').slice(0, MAX_IDEA_SEEDS);
    if (keywords.length === 0) return [];
    const limit = options.limit ?? DEFAULT_IDEA_LIMIT;
    const body = await this.post(
      keywordIdeasPath(this.config.customerId),
      {
        ...targetingOf(market),
        includeAdultKeywords: false,
        keywordSeed: { keywords },
        pageSize: limit,
      },
      options.signal,
    );
    return ideaFigures(body).slice(0, limit);
  }

  async ideasForSite(market: KeywordMarket, domain: string, options: IdeaOptions = {}): Promise<KeywordFigures[]> {
    const limit = options.limit ?? DEFAULT_IDEA_LIMIT;
    const body = await this.post(
      keywordIdeasPath(this.config.customerId),
      {
        ...targetingOf(market),
        includeAdultKeywords: false,
        siteSeed: { site: domain },
        pageSize: limit,
      },
      options.signal,
    );
    return ideaFigures(body).slice(0, limit);
  }

  /** `signal`: the caller stopped waiting; the try in flight is cut off and no retry starts. */
  private async post(path: string, body: Record<string, unknown>, signal?: AbortSignal): Promise<unknown> {
    let refreshedAfterRefusal = false;
    return withRetry(
      this.retry,
      async (timeoutMs) => {
        for (;;) {
          const accessToken = await this.token.get(signal);
          let response;
          try {
            response = await fetchJson({
              provider: PROVIDER,
              method: 'POST',
              url: new URL(`${this.config.baseUrl}${path}`),
              body,
              headers: {
                authorization: `Bearer ${accessToken}`,
                'developer-token': this.config.developerToken,
                ...(this.config.loginCustomerId ? { 'login-customer-id': this.config.loginCustomerId } : {}),
              },
              timeoutMs,
              signal,
              secrets: [accessToken, this.config.developerToken],
            });
          } catch (error) {
            throw KeywordDataError.from(error, PROVIDER);
          }
          // A token Google no longer takes (revoked, expired early): one fresh exchange, then give up.
          if (response.status === 401 && !refreshedAfterRefusal) {
            refreshedAfterRefusal = true;
            this.token.forget();
            continue;
          }
          if (response.status >= 400) {
            const message = upstreamMessage(response.body) ?? 'no error message';
            throw new KeywordDataError(
              PROVIDER,
              'http',
              `${path.replace(/customers\/\d+/, 'customers/…')} answered ${response.status}: ${message}`,
              response.status,
            );
          }
          if (!asObject(response.body))
            throw new KeywordDataError(
              PROVIDER,
              'malformed',
              `${path.replace(/customers\/\d+/, 'customers/…')} answered without a JSON object`,
            );
          return response.body;
        }
      },
      signal,
    );
  }
}

function targetingOf(market: KeywordMarket): { language: string; geoTargetConstants: string[]; keywordPlanNetwork: string } {
  const location = countryLocationCode(market.geoCode);
  if (location === undefined) throw new KeywordDataError(PROVIDER, 'http', `no geo target for the country "${market.geoCode}"`, 400);
  const language = googleAdsLanguageConstant(market.langCode);
  if (language === undefined)
    throw new KeywordDataError(PROVIDER, 'http', `Google Ads does not target the language "${market.langCode}"`, 400);
  return { language, geoTargetConstants: [`geoTargetConstants/${location}`], keywordPlanNetwork: 'GOOGLE_SEARCH' };
}

/**
 * Google merges close variants ("car", "cars") into one result named by one of them and lists the
 * others in `closeVariants`; each asked text among them gets the shared figures, so every asked
 * keyword that Google knows is answered under its own text.
 */
function historicalFigures(body: unknown, asked: ReadonlySet<string>): KeywordFigures[] {
  const figures: KeywordFigures[] = [];
  const seen = new Set<string>();
  for (const raw of resultsOf(body)) {
    const result = asObject(raw);
    if (!result || typeof result.text !== 'string') continue;
    const metrics = metricsOf(asObject(result.keywordMetrics));
    const variants = (asArray(result.closeVariants) ?? []).filter((v): v is string => typeof v === 'string');
    for (const text of [result.text, ...variants.filter((variant) => asked.has(variant))]) {
      if (seen.has(text)) continue;
      seen.add(text);
      figures.push({ keyword: text, ...metrics });
    }
  }
  return figures;
}

function ideaFigures(body: unknown): KeywordFigures[] {
  const figures: KeywordFigures[] = [];
  for (const raw of resultsOf(body)) {
    const result = asObject(raw);
    if (!result || typeof result.text !== 'string') continue;
    figures.push({ keyword: result.text, ...metricsOf(asObject(result.keywordIdeaMetrics)) });
  }
  return figures;
}

function resultsOf(body: unknown): unknown[] {
  const results = asObject(body)?.results;
  // An answer with nothing to say omits `results` (proto3 JSON drops empty lists).
  if (results === undefined) return [];
  const list = asArray(results);
  if (!list) throw new KeywordDataError(PROVIDER, 'malformed', 'results is not a list');
  return list;
}

/** KeywordPlanHistoricalMetrics in proto3 JSON: int64 values arrive as strings, absent ones are omitted. */
function metricsOf(metrics: Record<string, unknown> | undefined): Omit<KeywordFigures, 'keyword'> {
  return {
    avgMonthlySearches: asNumber(metrics?.avgMonthlySearches) ?? null,
    competition: competitionOf(metrics?.competition),
    competitionIndex: asNumber(metrics?.competitionIndex) ?? null,
    cpcLow: microsToUnits(metrics?.lowTopOfPageBidMicros),
    cpcHigh: microsToUnits(metrics?.highTopOfPageBidMicros),
    history: historyOf(metrics?.monthlySearchVolumes),
  };
}

function competitionOf(value: unknown): Competition | null {
  return value === 'LOW' || value === 'MEDIUM' || value === 'HIGH' ? value : null;
}

/** Micros are millionths of the currency unit; two decimals is what a bid is shown with. */
function microsToUnits(value: unknown): number | null {
  const micros = asNumber(value);
  return micros === undefined ? null : Math.round(micros / 10_000) / 100;
}

function historyOf(value: unknown): MonthlyVolume[] {
  const months: MonthlyVolume[] = [];
  for (const raw of asArray(value) ?? []) {
    const entry = asObject(raw);
    const year = asNumber(entry?.year);
    const month = typeof entry?.month === 'string' ? MONTHS.indexOf(entry.month) + 1 : 0;
    // A month Google has no count for omits monthlySearches; zero searches is a real figure.
    const searches = entry?.monthlySearches === undefined ? undefined : asNumber(entry.monthlySearches);
    if (year !== undefined && month >= 1 && searches !== undefined) months.push({ year, month, value: searches });
  }
  return monthlyHistory(months);
}
