import type { RecordedEvent, SubscribeToAllOptions, Subscription } from '../event-store.port';
import { reportSubscriptionDeath } from '../subscription-errors';

export interface PollingSubscriptionSettings {
  /** Reads up to `maxCount` events strictly after `afterPosition`, in position order. */
  readBatch: (afterPosition: number, maxCount: number) => RecordedEvent[];
  batchSize: number;
  /** How long to wait for an in-process wake-up before looking again (catches other processes' appends). */
  pollIntervalMs: number;
  /** Told once the subscription has ended, for whatever reason, so the store can forget it. */
  onEnded: (subscription: PollingSubscription) => void;
}

/**
 * Follows the log: reads a batch after the checkpoint, hands each event to the handler one at a
 * time, and when it has caught up sleeps until woken by an append in this process or until the poll
 * interval passes (appends by other processes on the same file only show up that way).
 *
 * Do not await `stop()` from inside the handler: stop waits for the handler to finish.
 */
export class PollingSubscription implements Subscription {
  private stopRequested = false;
  /** Set by `wake()`; an append that lands while the handler runs must not wait a full poll interval. */
  private wakeRequested = false;
  private endSleep: (() => void) | undefined;
  private readonly finished: Promise<void>;

  constructor(
    private readonly options: SubscribeToAllOptions,
    private readonly settings: PollingSubscriptionSettings,
  ) {
    this.finished = this.follow();
  }

  /** Tells the subscription new events may be in the log. */
  wake(): void {
    this.wakeRequested = true;
    this.endSleep?.();
  }

  async stop(): Promise<void> {
    this.stopRequested = true;
    this.endSleep?.();
    await this.finished;
  }

  private async follow(): Promise<void> {
    // Yield first, so the handler never runs before subscribeToAll has returned to its caller.
    await yieldToEventLoop();
    let checkpoint = this.options.afterPosition ?? 0;
    try {
      while (!this.stopRequested) {
        this.wakeRequested = false;
        const batch = this.settings.readBatch(checkpoint, this.settings.batchSize);
        for (const event of batch) {
          if (this.stopRequested) return;
          await this.options.onEvent(event);
          checkpoint = event.position;
        }
        if (batch.length === this.settings.batchSize) {
          // Still catching up: let timers and I/O run between batches even if the handler is synchronous.
          await yieldToEventLoop();
        } else {
          await this.sleep(this.settings.pollIntervalMs);
        }
      }
    } catch (error) {
      this.stopRequested = true;
      reportSubscriptionDeath(this.options, error);
    } finally {
      this.settings.onEnded(this);
    }
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        this.endSleep = undefined;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.endSleep = done;
      // A wake that arrived after the read (while the handler ran, say) must not wait a poll interval.
      if (this.wakeRequested || this.stopRequested) done();
    });
  }
}

function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
