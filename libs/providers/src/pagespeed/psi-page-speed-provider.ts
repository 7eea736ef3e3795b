import { fetchJson, upstreamMessage } from '../shared/fetch-json';
import { asObject } from '../shared/json-shape';
import { UpstreamError } from '../shared/upstream-error';
import { cruxScore, fieldDataFromLoadingExperience } from './field-data';
import { LIGHTHOUSE_CATEGORIES, labDataFromLighthouseResult } from './lab-data';
import type { PageSpeedMeasurement, PageSpeedProvider } from './page-speed-provider';

export const PSI_PROVIDER = 'pagespeed-insights';
export const DEFAULT_PAGESPEED_BASE_URL = 'https://www.googleapis.com/pagespeedonline/v5';

export interface PsiOptions {
  /** `PAGESPEED_BASE_URL`, without a trailing slash. */
  baseUrl: string;
  /** `PAGESPEED_API_KEY`; without one Google allows a few anonymous runs a day. */
  apiKey?: string;
  /** A PSI run loads the page in Google's lab and often takes 20–40 s; 60 s by default. */
  timeoutMs?: number;
}

/**
 * The categories by the names of runPagespeed's `category` enum (its reference lists CATEGORY_UNSPECIFIED,
 * ACCESSIBILITY, BEST_PRACTICES, PERFORMANCE, PWA, SEO; `strategy` is DESKTOP or MOBILE). The answer
 * keys them by their Lighthouse ids (`best-practices`) whatever was sent.
 */
const PSI_CATEGORY: Record<(typeof LIGHTHOUSE_CATEGORIES)[number], string> = {
  performance: 'PERFORMANCE',
  accessibility: 'ACCESSIBILITY',
  'best-practices': 'BEST_PRACTICES',
  seo: 'SEO',
};

/**
 * PageSpeed Insights API v5: one `runPagespeed` call (mobile, the four categories) gives the lab
 * data of Google's Lighthouse run and the page's CrUX field data.
 */
export class PsiPageSpeedProvider implements PageSpeedProvider {
  readonly source = 'psi' as const;

  constructor(private readonly options: PsiOptions) {}

  async measure(url: string, signal?: AbortSignal): Promise<PageSpeedMeasurement> {
    const request = new URL(`${this.options.baseUrl}/runPagespeed`);
    request.searchParams.set('url', url);
    request.searchParams.set('strategy', 'MOBILE');
    for (const category of LIGHTHOUSE_CATEGORIES) request.searchParams.append('category', PSI_CATEGORY[category]);
    if (this.options.apiKey) request.searchParams.set('key', this.options.apiKey);

    const { status, body } = await fetchJson({
      provider: PSI_PROVIDER,
      method: 'GET',
      url: request,
      timeoutMs: this.options.timeoutMs ?? 60_000,
      signal,
      secrets: [this.options.apiKey],
    });
    if (status !== 200) {
      const message = upstreamMessage(body);
      // PSI answers 400/500 "Lighthouse returned error: …" when the page itself could not be loaded.
      if (message?.startsWith('Lighthouse returned error')) throw new UpstreamError(PSI_PROVIDER, 'page', message, status);
      throw new UpstreamError(PSI_PROVIDER, 'http', `runPagespeed answered ${status}${message ? `: ${message}` : ''}`, status);
    }
    const answer = asObject(body);
    if (!answer) throw new UpstreamError(PSI_PROVIDER, 'malformed', 'runPagespeed answered 200 with no JSON object');
    const lab = labDataFromLighthouseResult(PSI_PROVIDER, answer.lighthouseResult);
    const field = fieldDataFromLoadingExperience(answer.loadingExperience);
    return { url, source: 'psi', ...lab, cruxFieldData: field, cruxScore: cruxScore(field) };
  }
}
