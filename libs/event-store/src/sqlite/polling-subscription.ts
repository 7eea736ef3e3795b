import type { RecordedEvent, SubscribeToAllOptions, Subscription } from '../event-store.port';
import { reportSubscriptionDeath } from '../subscription-errors';
import { WakeUpCall } from './wake-up-call';

export interface PollingSubscriptionSettings<Row> {
  /** Reads up to `maxCount` events strictly after `afterPosition`, in position order, as stored. */
  readBatch: (afterPosition: number, maxCount: number) => Row[];
  /**
   * One stored event as the handler gets it. Called for each event just before its handler, not for
   * a whole batch at once: a batch's parsed events all alive together (500 result pages, about 10 MB)
   * were copied by every young-generation collection that ran while the batch was handled.
   */
  decode: (row: Row) => RecordedEvent;
  batchSize: number;
  /** How long to wait for an in-process wake-up before looking again (catches other processes' appends). */
  pollIntervalMs: number;
  /** Told once the subscription has ended, for whatever reason, so the store can forget it. */
  onEnded: (subscription: PollingSubscription<Row>) => void;
}

/**
 * Follows the log: reads a batch after the checkpoint, hands each event to the handler one at a
 * time, and when it has caught up sleeps until woken by an append in this process or until the poll
 * interval passes (appends by other processes on the same file only show up that way).
 *
 * Do not await `stop()` from inside the handler: stop waits for the handler to finish.
 */
export class PollingSubscription<Row> implements Subscription {
  private stopRequested = false;
  private readonly wakeUp = new WakeUpCall();
  private readonly finished: Promise<void>;

  constructor(
    private readonly options: SubscribeToAllOptions,
    private readonly settings: PollingSubscriptionSettings<Row>,
  ) {
    this.finished = this.follow();
  }

  /** Tells the subscription new events may be in the log. */
  wake(): void {
    this.wakeUp.wake();
  }

  async stop(): Promise<void> {
    this.stopRequested = true;
    this.wakeUp.wake();
    await this.finished;
  }

  private async follow(): Promise<void> {
    // Yield first, so the handler never runs before subscribeToAll has returned to its caller.
    await yieldToEventLoop();
    let checkpoint = this.options.afterPosition ?? 0;
    try {
      while (!this.stopRequested) {
        this.wakeUp.startRound();
        const batch = this.settings.readBatch(checkpoint, this.settings.batchSize);
        for (const row of batch) {
          if (this.stopRequested) return;
          const event = this.settings.decode(row);
          const handling = this.options.onEvent(event);
          // A handler that is done at once (a catch-up's, mostly) is not awaited: awaiting nothing
          // would still cost a turn of the microtask queue per event.
          if (handling) await handling;
          checkpoint = event.position;
        }
        if (batch.length === this.settings.batchSize) {
          // Still catching up: let timers and I/O run between batches even if the handler is synchronous.
          await yieldToEventLoop();
        } else {
          await this.wakeUp.pause(this.settings.pollIntervalMs);
        }
      }
    } catch (error) {
      this.stopRequested = true;
      reportSubscriptionDeath(this.options, error);
    } finally {
      this.settings.onEnded(this);
    }
  }
}

function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
