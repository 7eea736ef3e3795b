import type { AutocompleteProvider } from '@rank/providers/autocomplete/autocomplete.port';
import type { KeywordDataProvider } from '@rank/providers/keyword-data/keyword-data.port';

/** The configured paid keyword-data provider (DataForSEO or Google Ads); null when none is configured. */
export const KEYWORD_DATA_PROVIDER = Symbol('KEYWORD_DATA_PROVIDER');
/** Google Autocomplete (GOOGLE_BASE_URL): always there, the free fallback. */
export const AUTOCOMPLETE_PROVIDER = Symbol('AUTOCOMPLETE_PROVIDER');

export type { AutocompleteProvider, KeywordDataProvider };
