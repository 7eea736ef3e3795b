import { Module } from '@nestjs/common';
import { RateLimitsModule } from '@rank/platform/rate-limits/rate-limits.module';
import { SerpCheckModule } from '@rank/research/serp-check/serp-check.module';
import { SerpCheckController } from './serp-check.controller';

@Module({
  imports: [SerpCheckModule, RateLimitsModule],
  controllers: [SerpCheckController],
})
export class SerpCheckHttpModule {}
