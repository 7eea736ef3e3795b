import { DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER, APP_GUARD } from '@nestjs/core';
import { AccountsModule } from '@rank/accounts/accounts.module';
import { PlatformModule, PlatformOptions } from '@rank/platform/platform.module';
import { ProjectorModule } from '@rank/projector/projector.module';
import { VolumeFetcherModule } from '@rank/research/volume-fetcher.module';
import { SuggestionsRunnerModule } from '@rank/research/suggestions/suggestions-runner.module';
import { CheckWorkerModule } from '@rank/tracking/check/check-worker.module';
import { DispatcherModule } from '@rank/tracking/dispatch/dispatcher.module';
import { SchedulerModule } from '@rank/tracking/schedule/scheduler.module';
import { AccountsAdminModule } from './accounts/accounts-admin.module';
import { ApiKeysModule } from './accounts/api-keys/api-keys.module';
import { ApiKeyAuthenticator } from './platform/auth/api-key-authenticator';
import { ApiKeyGuard } from './platform/auth/api-key.guard';
import { HealthController } from './platform/health/health.controller';
import { MetricsController } from './platform/health/metrics.controller';
import { Readiness } from './platform/health/readiness';
import { AllExceptionsFilter } from './platform/http/exception.filter';
import { RouteRegistry } from './platform/http/route-registry';
import { ProjectsHttpModule } from './projects/projects-http.module';
import { ResearchHttpModule } from './research/research-http.module';
import { SerpCheckHttpModule } from './research/serp-check/serp-check-http.module';
import { LiveCheckWorkerModule } from '@rank/research/serp-check/live-check-worker.module';
import { ExportsModule } from './tracking/exports/exports.module';
import { TrackingReadsModule } from './tracking/reads/tracking-reads.module';
import { TrackingHttpModule } from './tracking/tracking-http.module';
import { DomainsHttpModule } from './domains/domains-http.module';
import { McpHttpModule } from './mcp/mcp-http.module';
import { DomainWorkerModule } from '@rank/domains/work/domain-worker.module';
import { PageSpeedMeasurerModule } from '@rank/domains/measure/page-speed-measurer.module';

export interface ApiOptions extends PlatformOptions {
  routes: RouteRegistry;
}

/**
 * The HTTP API, one module per bounded context. With more ROLES than `api` (standalone runs them all)
 * the same process also composes the other apps' roles from their libraries: the projector
 * (projections and work dispatcher), the scheduler's minute tick and the check worker.
 */
@Module({})
export class AppModule {
  static forRoot(options: ApiOptions): DynamicModule {
    const { roles } = options.config;
    return {
      module: AppModule,
      imports: [
        PlatformModule.forRoot(options),
        AccountsModule,
        // The operator API exists only with ADMIN_TOKEN: without it, /admin has no route at all (404 whatever the method).
        ...(options.config.adminToken !== undefined ? [AccountsAdminModule] : []),
        ApiKeysModule,
        ProjectsHttpModule,
        TrackingHttpModule,
        ExportsModule,
        TrackingReadsModule,
        ResearchHttpModule,
        SerpCheckHttpModule,
        DomainsHttpModule,
        McpHttpModule,
        // Always composed, so that slots can be requested on demand; its minute tick runs only with the `scheduler` role.
        SchedulerModule,
        ...(roles.has('projections')
          ? [ProjectorModule, DispatcherModule, VolumeFetcherModule, SuggestionsRunnerModule, DomainWorkerModule]
          : []),
        ...(roles.has('scraper') ? [CheckWorkerModule, LiveCheckWorkerModule, PageSpeedMeasurerModule] : []),
      ],
      controllers: [HealthController, MetricsController],
      providers: [
        { provide: RouteRegistry, useValue: options.routes },
        ApiKeyAuthenticator,
        Readiness,
        { provide: APP_GUARD, useClass: ApiKeyGuard },
        { provide: APP_FILTER, useClass: AllExceptionsFilter },
      ],
    };
  }
}
