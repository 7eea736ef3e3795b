/** A query to Google's autocomplete. */
export interface AutocompleteQuery {
  /** The text typed so far. */
  q: string;
  /** Interface language, ISO 639-1 (`en`). */
  hl: string;
  /** Country, ISO 3166-1 alpha-2 (`US`). */
  gl: string;
}

/**
 * Search phrases Google completes a query with: the free fallback for keyword ideas and
 * suggestions. Throws a KeywordDataError (`unavailable` when unreachable or slow,
 * `upstream_error` on an error answer or an unexpected body).
 */
export interface AutocompleteProvider {
  complete(query: AutocompleteQuery): Promise<string[]>;
}
