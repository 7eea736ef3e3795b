import { Module } from '@nestjs/common';
import type { AppConfig } from '@rank/platform/config/app-config';
import { APP_CONFIG } from '@rank/platform/tokens';
import { DOMAIN_DATA_PROVIDERS, domainDataProvidersFrom } from './domain-data-providers';
import { DomainDataRepository } from './domain-data.repository';
import { DomainDataFetcher } from './fetch/domain-data-fetcher';

/** The providers and the domain streams they fill: all a scraper needs (no read store). */
@Module({
  providers: [
    { provide: DOMAIN_DATA_PROVIDERS, inject: [APP_CONFIG], useFactory: (config: AppConfig) => domainDataProvidersFrom(config) },
    DomainDataRepository,
    DomainDataFetcher,
  ],
  exports: [DOMAIN_DATA_PROVIDERS, DomainDataRepository, DomainDataFetcher],
})
export class DomainDataWritersModule {}
