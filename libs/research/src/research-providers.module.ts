import { Inject, Module, OnApplicationShutdown } from '@nestjs/common';
import type { AppConfig } from '@rank/platform/config/app-config';
import { APP_CONFIG } from '@rank/platform/tokens';
import { createAutocomplete } from '@rank/providers/autocomplete/autocomplete.factory';
import { createKeywordDataProvider } from '@rank/providers/keyword-data/keyword-data-provider.factory';
import type { GoogleAutocomplete } from '@rank/providers/autocomplete/google-autocomplete.client';
import { AUTOCOMPLETE_PROVIDER, KEYWORD_DATA_PROVIDER } from './keyword-data-providers';

/**
 * The keyword-data providers, made once per process from the configuration: DataForSEO, else a
 * Google Ads account, else none (KEYWORD_DATA_PROVIDER null); Google Autocomplete through the
 * scraper's GOOGLE_BASE_URL and proxies, always.
 */
@Module({
  providers: [
    {
      provide: KEYWORD_DATA_PROVIDER,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => createKeywordDataProvider(config.keywordProviders),
    },
    { provide: AUTOCOMPLETE_PROVIDER, inject: [APP_CONFIG], useFactory: (config: AppConfig) => createAutocomplete(config.scraper) },
  ],
  exports: [KEYWORD_DATA_PROVIDER, AUTOCOMPLETE_PROVIDER],
})
export class ResearchProvidersModule implements OnApplicationShutdown {
  constructor(@Inject(AUTOCOMPLETE_PROVIDER) private readonly autocomplete: GoogleAutocomplete) {}

  /** Its proxy connections stay open until closed. */
  async onApplicationShutdown(): Promise<void> {
    await this.autocomplete.close();
  }
}
