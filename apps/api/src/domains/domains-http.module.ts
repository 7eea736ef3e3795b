import { Module } from '@nestjs/common';
import { DomainsModule } from '@rank/domains/domains.module';
import { RateLimitsModule } from '@rank/platform/rate-limits/rate-limits.module';
import { ProjectsModule } from '@rank/projects/projects.module';
import { DomainReadsController } from './domain-reads.controller';
import { PagesPageSpeedController } from './pages-pagespeed.controller';
import { TrafficCheckController } from './traffic-check.controller';

/** External domains over HTTP: the traffic check, the reads of cached traffic, page speed and CrUX history, competitor comparison. */
@Module({
  imports: [DomainsModule, ProjectsModule, RateLimitsModule],
  controllers: [TrafficCheckController, DomainReadsController, PagesPageSpeedController],
})
export class DomainsHttpModule {}
