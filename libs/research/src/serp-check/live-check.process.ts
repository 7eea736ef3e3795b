import type { SerpFetchOutcome, SerpRequest } from '@rank/serp/fetcher';
import { uuidFromName } from '@rank/domain/deterministic-uuid';
import type { LiveCheckAnswer, LiveCheckRequested, LiveSerpResult } from './live-check.events';

/** serp-check shows the organic results of the first page. */
export const LIVE_CHECK_RESULTS = 10;

/**
 * What a scraper does with a live-check request, decided without I/O: load the first page, or, when
 * the api has stopped waiting, record that it expired without loading anything.
 */
export function startLiveCheck(
  request: LiveCheckRequested['data'],
  now: Date,
): { kind: 'fetch'; request: SerpRequest } | { kind: 'record'; answer: LiveCheckAnswer } {
  if (now.getTime() >= Date.parse(request.expiresAt)) {
    return {
      kind: 'record',
      answer: {
        type: 'LiveCheckFailed',
        data: {
          requestId: request.requestId,
          reason: 'the request expired before a scraper took it',
          cause: 'expired',
          answeredAt: now.toISOString(),
        },
      },
    };
  }
  return {
    kind: 'fetch',
    request: { keyword: request.keyword, geoCode: request.geoCode, langCode: request.langCode, depth: LIVE_CHECK_RESULTS },
  };
}

/** The answer event of a fetched page: the first page's organic results, or why it could not be read. */
export function liveCheckAnswer(request: LiveCheckRequested['data'], outcome: SerpFetchOutcome, now: Date): LiveCheckAnswer {
  const answeredAt = now.toISOString();
  if (outcome.kind === 'failed') {
    return {
      type: 'LiveCheckFailed',
      data: { requestId: request.requestId, reason: outcome.reason, cause: outcome.cause ?? 'other', answeredAt },
    };
  }
  const serp: LiveSerpResult[] = outcome.organic
    .slice(0, LIVE_CHECK_RESULTS)
    .map((result, i) => ({ position: i + 1, url: result.url, title: result.title, snippet: result.snippet }));
  return { type: 'LiveCheckAnswered', data: { requestId: request.requestId, serp, source: outcome.source ?? null, answeredAt } };
}

/** One answer per request however often it is delivered: the event store keeps the first append of this id. */
export const liveCheckAnswerId = (requestId: string) => uuidFromName(`live-check-answer:${requestId}`);
