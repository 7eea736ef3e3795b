import type { SerpFetchOutcome, SerpRequest } from '../fetcher/serp-fetcher';

/**
 * Where a check's result pages come from. `browser` and `fetch-api` hand raw HTML to our parser;
 * `dataforseo` and `serpapi` answer with results already parsed, mapped to the parser's output.
 */
export const SERP_SOURCE_NAMES = ['browser', 'fetch-api', 'dataforseo', 'serpapi'] as const;
export type SerpSourceName = (typeof SERP_SOURCE_NAMES)[number];

/** Old checks were all loaded by the browser: a result without a source reads as this. */
export const DEFAULT_SERP_SOURCE: SerpSourceName = 'browser';

export const isSerpSourceName = (value: string): value is SerpSourceName => (SERP_SOURCE_NAMES as readonly string[]).includes(value);

/**
 * One way to read a keyword's top `depth` results. A source never throws for the upstream's
 * failures: it answers `failed` with a reason and a cause, so that the next source can be tried.
 */
export interface SerpSource {
  readonly name: SerpSourceName;
  fetchSerp(request: SerpRequest): Promise<SerpFetchOutcome>;
  close(): Promise<void>;
}
