import type { ConsumerGroupOptions, EventStore, SubscribeToAllOptions, Subscription } from './event-store.port';

/** How a lasting subscription comes back after it died. */
export interface Resubscription {
  /** Told each time the subscription died, with the pause before it subscribes again. */
  onLost: (error: unknown, againInMs: number) => void;
  /** The first pause; it doubles with each failure in a row, up to `longestPauseMs`. Default 1 s. */
  firstPauseMs?: number;
  /** Default 30 s. */
  longestPauseMs?: number;
}

/**
 * A subscription that subscribes again whenever it dies, after a doubling pause that an event
 * delivered since sets back to the first. A store that drops its connections for a moment (a node
 * restarting, a network cut) ends a subscription; a worker that only logged that stayed deaf to the
 * log until its process restarted, while its probes said ready.
 */
class LastingSubscription implements Subscription {
  private current: Subscription | undefined;
  private pause: NodeJS.Timeout | undefined;
  private stopped = false;
  private failures = 0;

  /**
   * `open` subscribes once, telling `onError` of its death and `delivered` of each event that came
   * through (the next failure then starts again from the first pause).
   */
  constructor(
    private readonly open: (calls: { onError: (error: unknown) => void; delivered: () => void }) => Subscription,
    private readonly resubscription: Resubscription,
  ) {
    this.subscribe();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.pause);
    await this.current?.stop();
  }

  private subscribe(): void {
    const delivered = () => {
      this.failures = 0;
    };
    this.current = this.open({
      delivered,
      onError: (error) => {
        this.current = undefined;
        if (this.stopped) return;
        const { firstPauseMs = 1_000, longestPauseMs = 30_000 } = this.resubscription;
        const againInMs = Math.min(firstPauseMs * 2 ** this.failures++, longestPauseMs);
        this.resubscription.onLost(error, againInMs);
        this.pause = setTimeout(() => {
          if (!this.stopped) this.subscribe();
        }, againInMs);
      },
    });
  }
}

/**
 * `subscribeToAll` for good: after a death it subscribes again from the event after the last one its
 * handler finished, so no event is skipped and none is handled twice by this subscriber. A handler
 * that throws is offered its event again after the pause.
 */
export function followAllForGood(store: EventStore, options: Omit<SubscribeToAllOptions, 'onError'> & Resubscription): Subscription {
  let after = options.afterPosition;
  return new LastingSubscription(
    ({ onError, delivered }) =>
      store.subscribeToAll({
        afterPosition: after,
        // Synchronous handlers stay synchronous: no promise per event on a long catch-up.
        onEvent: (event) => {
          const handled = () => {
            after = event.position;
            delivered();
          };
          const handling = options.onEvent(event);
          if (handling === undefined) return handled();
          return handling.then(handled);
        },
        onError,
      }),
    options,
  );
}

/** `joinConsumerGroup` for good: after the membership dies, the member joins its group again (which offers again what it left unsettled). */
export function joinGroupForGood(store: EventStore, options: Omit<ConsumerGroupOptions, 'onError'> & Resubscription): Subscription {
  return new LastingSubscription(
    ({ onError, delivered }) =>
      store.joinConsumerGroup({
        ...options,
        onEvent: (event, attempt) => {
          delivered();
          return options.onEvent(event, attempt);
        },
        onError,
      }),
    options,
  );
}
