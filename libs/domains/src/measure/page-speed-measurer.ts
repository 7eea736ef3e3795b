import { joinGroupForGood } from '@rank/event-store/lasting-subscriptions';
import { parseEvent } from '@rank/domain/domain-event';
import type { EventStore, Subscription } from '@rank/event-store/event-store.port';
import { PAGE_SPEED_WORK_EVENT_TYPES, PAGE_SPEED_WORK_STREAM_PREFIX, PageSpeedWorkEvent } from '../domain/page-speed-work.events';

export const PAGE_SPEED_MEASURERS_GROUP = 'page-speed-measurers';
/** A Lighthouse run is killed after 90 s; a little more before the group offers the request to another member. */
const MEASUREMENT_TIMEOUT_MS = 150_000;

export interface PageSpeedMeasurerDependencies {
  store: EventStore;
  /** Measures and records the outcome (data or failure) in the domain's stream; never throws for a provider failure. */
  measure(request: PageSpeedWorkEvent['data']): Promise<void>;
  log(message: string): void;
}

/**
 * A scraper's member of the `page-speed-measurers` consumer group: takes one request at a time (a
 * Lighthouse run uses a whole core), measures, and lets the projector's worker see the outcome in the
 * log (a failure there is retried with backoff as a new request). A request that the store failed to
 * record is offered again; two deliveries measure twice, and the later record wins, which is harmless.
 */
export class PageSpeedMeasurer {
  private membership: Subscription | undefined;
  private inFlight = new Set<Promise<void>>();

  constructor(private readonly deps: PageSpeedMeasurerDependencies) {}

  start(): void {
    this.membership = joinGroupForGood(this.deps.store, {
      group: PAGE_SPEED_MEASURERS_GROUP,
      streamPrefix: PAGE_SPEED_WORK_STREAM_PREFIX,
      maxInFlight: 1,
      messageTimeoutMs: MEASUREMENT_TIMEOUT_MS,
      maxRetries: 3,
      onEvent: (event) => {
        const request = parseEvent<PageSpeedWorkEvent>(event, PAGE_SPEED_WORK_EVENT_TYPES);
        if (!request) return Promise.resolve();
        const run = this.deps.measure(request.data).finally(() => this.inFlight.delete(run));
        this.inFlight.add(run);
        return run;
      },
      onParked: (event, error) => this.deps.log(`page-speed request ${event.id} was parked: ${String(error)}`),
      onLost: (error, againInMs) =>
        this.deps.log(`the page-speed measurer left its consumer group, joining again in ${againInMs} ms: ${String(error)}`),
    });
  }

  async stop(): Promise<void> {
    await this.membership?.stop();
  }

  /** For tests: resolves when no measurement is under way. */
  async idle(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
  }
}
