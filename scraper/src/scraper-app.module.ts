import { DynamicModule, Module } from '@nestjs/common';
import { PlatformModule, PlatformOptions } from '@rank/platform/platform.module';
import { CheckWorkerModule } from '@rank/tracking/check/check-worker.module';
import { LiveCheckWorkerModule } from '@rank/research/serp-check/live-check-worker.module';

/** The scraper app: a member of the `scrapers` consumer group (scheduled checks) and of `live-checks` (serp-check). Event store and Chromium; no ClickHouse, no HTTP server. */
@Module({})
export class ScraperAppModule {
  static forRoot(options: PlatformOptions): DynamicModule {
    return { module: ScraperAppModule, imports: [PlatformModule.forRoot(options), CheckWorkerModule, LiveCheckWorkerModule] };
  }
}
