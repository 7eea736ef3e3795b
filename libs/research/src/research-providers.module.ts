import { Module } from '@nestjs/common';
import { KeywordDataError } from '@rank/providers/keyword-data/keyword-data-error';
import { AUTOCOMPLETE_PROVIDER, AutocompleteProvider, KEYWORD_DATA_PROVIDER } from './keyword-data-providers';

// TODO(10a): build both from libs/providers' factories (DATAFORSEO_*/GOOGLE_ADS_*, GOOGLE_BASE_URL) once they land.
const notWiredAutocomplete: AutocompleteProvider = {
  complete: async () => {
    throw new KeywordDataError('autocomplete', 'unreachable', 'the autocomplete client is not wired yet');
  },
};

/** The configured keyword-data providers, made once per process from the configuration. */
@Module({
  providers: [
    { provide: KEYWORD_DATA_PROVIDER, useValue: null },
    { provide: AUTOCOMPLETE_PROVIDER, useValue: notWiredAutocomplete },
  ],
  exports: [KEYWORD_DATA_PROVIDER, AUTOCOMPLETE_PROVIDER],
})
export class ResearchProvidersModule {}
