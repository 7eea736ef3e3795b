import { Module } from '@nestjs/common';
import { TrackingModule } from '@rank/tracking/tracking.module';
import { RequestScrapeController } from './request-scrape/request-scrape.controller';

/** On-demand checks over HTTP (the ranking reads and exports have modules of their own). */
@Module({
  imports: [TrackingModule],
  controllers: [RequestScrapeController],
})
export class TrackingHttpModule {}
