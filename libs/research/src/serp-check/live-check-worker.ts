import { joinGroupForGood } from '@rank/event-store/lasting-subscriptions';
import { parseEvent } from '@rank/domain/domain-event';
import type { EventStore, RecordedEvent, Subscription } from '@rank/event-store/event-store.port';
import type { SerpFetchOutcome, SerpRequest } from '@rank/serp/fetcher';
import {
  LIVE_CHECK_GROUP,
  LIVE_CHECK_REQUEST_TYPES,
  LIVE_CHECK_STREAM_PREFIX,
  LiveCheckAnswer,
  LiveCheckRequested,
  liveCheckStream,
} from './live-check.events';
import { liveCheckAnswer, liveCheckAnswerId, startLiveCheck } from './live-check.process';

export interface LiveCheckWorkerDependencies {
  store: EventStore;
  fetchSerp(request: SerpRequest): Promise<SerpFetchOutcome>;
  now(): Date;
  log(message: string): void;
}

export interface LiveCheckWorkerOptions {
  /** Live checks this scraper serves at once. */
  concurrency: number;
  /** A request not answered within this time is offered to another scraper (it outlives the api's wait, so in practice the api has given up by then). */
  messageTimeoutMs?: number;
}

/**
 * Serves live serp-checks on a scraper. Every scraper is a member of the `live-checks` consumer
 * group over the `live-check-*` streams, apart from the `scrapers` group of scheduled checks: a live
 * check, which a person is waiting for, never queues behind a project's thousands of checks. The
 * answer is appended to the request's own stream, where the api waits for it.
 */
export class LiveCheckWorker {
  private membership: Subscription | undefined;

  constructor(
    private readonly deps: LiveCheckWorkerDependencies,
    private readonly options: LiveCheckWorkerOptions,
  ) {}

  start(): void {
    this.membership = joinGroupForGood(this.deps.store, {
      group: LIVE_CHECK_GROUP,
      streamPrefix: LIVE_CHECK_STREAM_PREFIX,
      maxInFlight: this.options.concurrency,
      messageTimeoutMs: this.options.messageTimeoutMs ?? 120_000,
      maxRetries: 1,
      onEvent: (event) => this.handle(event),
      onParked: (event, error) => this.deps.log(`live check ${event.streamName} was given up: ${String(error)}`),
      onLost: (error, againInMs) =>
        this.deps.log(`the live-check worker left its consumer group, joining again in ${againInMs} ms: ${String(error)}`),
    });
  }

  async stop(): Promise<void> {
    await this.membership?.stop();
  }

  private async handle(event: RecordedEvent): Promise<void> {
    // The group also hands over the answers appended to these streams: only requests are work.
    const requested = parseEvent<LiveCheckRequested>(event, LIVE_CHECK_REQUEST_TYPES);
    if (!requested) return;
    const request = requested.data;
    const start = startLiveCheck(request, this.deps.now());
    const answer: LiveCheckAnswer =
      start.kind === 'record' ? start.answer : liveCheckAnswer(request, await this.fetch(start.request), this.deps.now());
    await this.deps.store.appendToStream(
      liveCheckStream(request.requestId),
      [{ id: liveCheckAnswerId(request.requestId), type: answer.type, data: answer.data }],
      {
        expectedRevision: 'any',
      },
    );
  }

  /** A fetcher that throws is a failed page for the caller, who is waiting, rather than a retry. */
  private async fetch(request: SerpRequest): Promise<SerpFetchOutcome> {
    try {
      return await this.deps.fetchSerp(request);
    } catch (error) {
      return { kind: 'failed', reason: error instanceof Error ? error.message : String(error), pagesRead: 0 };
    }
  }
}
