import { Module } from '@nestjs/common';
import type { AppConfig } from '@rank/platform/config/app-config';
import { APP_CONFIG } from '@rank/platform/tokens';
import { DOMAIN_DATA_PROVIDERS, domainDataProvidersFrom } from './domain-data-providers';
import { DomainDataRepository } from './domain-data.repository';
import { DomainDataFetcher } from './fetch/domain-data-fetcher';
import { DomainDataReader } from './reads/domain-data.reader';
import { DomainReads } from './reads/domain-reads';
import { ReportDomainDataLoader } from './reads/report-domain-data';
import { TrafficCheck } from './traffic-check';
import { NewDomainAllowances } from '@rank/accounts/new-domain-allowances';

/** External domains' data: the providers, the domain streams, the fetcher that fills them, the cached read models. */
@Module({
  providers: [
    { provide: DOMAIN_DATA_PROVIDERS, inject: [APP_CONFIG], useFactory: (config: AppConfig) => domainDataProvidersFrom(config) },
    DomainDataRepository, DomainDataFetcher, DomainDataReader, NewDomainAllowances, TrafficCheck, DomainReads, ReportDomainDataLoader,
  ],
  exports: [DOMAIN_DATA_PROVIDERS, DomainDataRepository, DomainDataFetcher, DomainDataReader, TrafficCheck, DomainReads, ReportDomainDataLoader],
})
export class DomainsModule {}
