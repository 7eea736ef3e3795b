import { Module } from '@nestjs/common';
import { NewDomainAllowances } from '@rank/accounts/new-domain-allowances';
import { DomainDataWritersModule } from './domain-data-writers.module';
import { DomainDataReader } from './reads/domain-data.reader';
import { DomainReads } from './reads/domain-reads';
import { ReportDomainDataLoader } from './reads/report-domain-data';
import { TrafficCheck } from './traffic-check';

/** External domains' data: the providers, the domain streams, the fetcher that fills them, the cached read models. */
@Module({
  imports: [DomainDataWritersModule],
  providers: [DomainDataReader, NewDomainAllowances, TrafficCheck, DomainReads, ReportDomainDataLoader],
  exports: [DomainDataWritersModule, DomainDataReader, TrafficCheck, DomainReads, ReportDomainDataLoader],
})
export class DomainsModule {}
