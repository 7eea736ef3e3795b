import { DynamicModule, Module } from '@nestjs/common';
import { PlatformModule, PlatformOptions } from '@rank/platform/platform.module';
import { CheckWorkerModule } from '@rank/tracking/check/check-worker.module';
import { LiveCheckWorkerModule } from '@rank/research/serp-check/live-check-worker.module';
import { PageSpeedMeasurerModule } from '@rank/domains/measure/page-speed-measurer.module';

/**
 * The scraper app: a member of the `scrapers` consumer group (scheduled checks), of `live-checks` (serp-check) and of
 * `page-speed-measurers` (Lighthouse runs the projector asks for). Event store and Chromium; no ClickHouse, no API (main.ts
 * answers /health, /ready and /metrics on OPS_PORT).
 */
@Module({})
export class ScraperAppModule {
  static forRoot(options: PlatformOptions): DynamicModule {
    return {
      module: ScraperAppModule,
      imports: [PlatformModule.forRoot(options), CheckWorkerModule, LiveCheckWorkerModule, PageSpeedMeasurerModule],
    };
  }
}
