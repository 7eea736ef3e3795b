import { eventTypes } from '@rank/domain/domain-event';
import { STREAM_CATEGORIES, streamPrefixOf } from '@rank/domain/stream-categories';

/** One organic result of the first page, as serp-check shows it. */
export interface LiveSerpResult {
  position: number;
  url: string;
  title: string;
  snippet: string;
}

/**
 * The api asks for a live first page. `expiresAt` is when the api stops waiting: a scraper that
 * takes the request later does not load a page nobody will read.
 */
export interface LiveCheckRequested {
  type: 'LiveCheckRequested';
  data: {
    requestId: string;
    accountId: string;
    keyword: string;
    geoCode: string;
    langCode: string;
    requestedAt: string;
    expiresAt: string;
  };
}

/** A scraper read the page. */
export interface LiveCheckAnswered {
  type: 'LiveCheckAnswered';
  data: { requestId: string; serp: LiveSerpResult[]; source: string | null; answeredAt: string };
}

/** Every source failed, or the request had expired before a scraper took it. */
export interface LiveCheckFailed {
  type: 'LiveCheckFailed';
  data: { requestId: string; reason: string; cause: string; answeredAt: string };
}

export type LiveCheckEvent = LiveCheckRequested | LiveCheckAnswered | LiveCheckFailed;
export type LiveCheckAnswer = LiveCheckAnswered | LiveCheckFailed;

export const LIVE_CHECK_EVENT_TYPES = eventTypes<LiveCheckEvent>()(['LiveCheckRequested', 'LiveCheckAnswered', 'LiveCheckFailed']);
export const LIVE_CHECK_ANSWER_TYPES = eventTypes<LiveCheckAnswer>()(['LiveCheckAnswered', 'LiveCheckFailed']);
export const LIVE_CHECK_REQUEST_TYPES = eventTypes<LiveCheckRequested>()(['LiveCheckRequested']);

export const liveCheckStream = (requestId: string) => STREAM_CATEGORIES['live-check'](requestId);
export const LIVE_CHECK_STREAM_PREFIX = streamPrefixOf('live-check');

/** The consumer group of the scrapers that serve live checks: apart from the `scrapers` group, so a live check never queues behind scheduled ones. */
export const LIVE_CHECK_GROUP = 'live-checks';
