/**
 * How long fetched domain data is served from the cache (clarifications: 30 days), and how often a
 * project's ranking pages are measured again (at most once a week per URL).
 */
const DAY_MS = 24 * 60 * 60 * 1000;
export const CACHE_FRESH_MS = 30 * DAY_MS;
export const PAGE_REMEASURE_MS = 7 * DAY_MS;

/** True when a record fetched at `fetchedAtMs` may still be served at `now`. */
export const isFresh = (fetchedAtMs: number | null, now: Date, freshFor = CACHE_FRESH_MS) =>
  fetchedAtMs !== null && now.getTime() - fetchedAtMs < freshFor;

/**
 * Background retries after a failed fetch: 1 min, 5 min, 30 min, 2 h, 12 h; after the fifth failure
 * the fetch waits for its next trigger (a project change, a new check of the page).
 */
export const RETRY_DELAYS_MS = [60_000, 5 * 60_000, 30 * 60_000, 2 * 60 * 60_000, 12 * 60 * 60_000] as const;

/** The delay before retrying after failure number `attempt` (1-based); null when no retry is left. */
export const retryDelayAfter = (attempt: number): number | null => RETRY_DELAYS_MS[attempt - 1] ?? null;
