import { eventTypes } from '@rank/domain/domain-event';
import { STREAM_CATEGORIES, streamPrefixOf } from '@rank/domain/stream-categories';
import type { PageSpeedLevel } from './domain-data.events';

/**
 * A page-speed measurement handed to the scrapers: with no PageSpeed Insights configured it is a
 * local Lighthouse run, which needs a Chromium, and in the distributed stack only the scrapers have
 * one. Each request is its own stream (`pagespeed-work-<requestId>`) in the `page-speed-measurers`
 * consumer group; the measurement or its failure is recorded in the domain's stream like any fetch.
 */
export type PageSpeedWorkEvent = {
  type: 'PageSpeedMeasurementRequested';
  /** `retry`: the request retries a failed measurement (its failure continues that round of retries). */
  data: { requestId: string; domain: string; url: string; level: PageSpeedLevel; requestedAt: string; retry?: true };
};

export const PAGE_SPEED_WORK_EVENT_TYPES = eventTypes<PageSpeedWorkEvent>()(['PageSpeedMeasurementRequested']);

export const pageSpeedWorkStreamName = STREAM_CATEGORIES['pagespeed-work'];
export const PAGE_SPEED_WORK_STREAM_PREFIX = streamPrefixOf('pagespeed-work');
