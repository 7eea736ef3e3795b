import {
  type EventStoreDBClient,
  PersistentSubscriptionExistsError,
  type PersistentSubscriptionToAll,
  type PersistentSubscriptionToAllResolvedEvent,
  persistentSubscriptionToAllSettingsFromDefaults,
  START,
  streamNameFilter,
} from '@eventstore/db-client';
import type { ConsumerGroupOptions, RecordedEvent, Subscription } from '../event-store.port';
import { reportSubscriptionDeath } from '../subscription-errors';
import { isSystemEvent, toRecordedEvent } from './eventstoredb-mapping';

/**
 * The server parks an event by itself once its retry count reaches `maxRetryCount`, on a nack *or a
 * message timeout*, and without telling the member. The port parks only after the handler failed on
 * its last attempt (and reports it to `onParked`); a late or vanished member means the event is simply
 * offered again, as in the SQLite adapter. So the server gets a ceiling it never reaches, and this
 * member parks with an explicit nack when the handler fails on an attempt beyond `maxRetries`.
 */
const SERVER_MAX_RETRY_COUNT = 2_147_483_647;

/** Whether an event of a stream is still visible (its stream was not deleted since). */
export type VisibilityCheck = (streamName: string, revision: number) => Promise<boolean>;

/**
 * One member of a consumer group: EventStoreDB's persistent subscription to `$all`, filtered on the
 * work streams' prefix. The server shares the events out, offers them again (after a nack, a message
 * timeout or a member leaving) and counts the offers; this class runs up to `maxInFlight` handlers and
 * answers each event with an ack, a nack to retry, or a nack to park after the last attempt.
 *
 * The group is created on first use, from the start of the log. An existing group keeps the settings
 * it was created with (change them with an update, not by joining with other options).
 */
export class EventStoreDbGroupMember implements Subscription {
  private stopping = false;
  private subscription: PersistentSubscriptionToAll | undefined;
  private readonly handlers = new Set<Promise<void>>();
  private wakeLoop: (() => void) | undefined;
  private readonly finished: Promise<void>;

  constructor(
    private readonly client: EventStoreDBClient,
    private readonly options: ConsumerGroupOptions,
    private readonly isVisible: VisibilityCheck,
    onEnded: (member: EventStoreDbGroupMember) => void,
  ) {
    this.finished = this.run().finally(() => onEnded(this));
  }

  /** Takes no more events, lets the handlers under way settle (their acks go out), then leaves the group. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.wakeLoop?.();
    await this.settleHandlers();
    await this.leave();
    await this.finished;
  }

  private async run(): Promise<void> {
    try {
      await this.ensureGroup();
      if (this.stopping) return;
      const subscription = this.client.subscribeToPersistentSubscriptionToAll(this.options.group, { bufferSize: this.options.maxInFlight });
      this.subscription = subscription;
      for await (const resolved of subscription) {
        // The server sends at most bufferSize unsettled events, but after a message timeout it counts
        // the timed-out one as settled while its handler may still run here: hence a local limit too.
        while (this.handlers.size >= this.options.maxInFlight && !this.stopping) {
          await new Promise<void>((resolve) => (this.wakeLoop = resolve));
        }
        // What arrives after stop() is left unsettled: the server offers it again when we leave.
        if (this.stopping) break;
        this.startHandler(subscription, resolved);
      }
      if (!this.stopping) throw new Error('EventStoreDB ended the consumer group subscription');
    } catch (error) {
      if (this.stopping) return;
      this.stopping = true;
      await this.settleHandlers();
      await this.leave();
      reportSubscriptionDeath(this.options, error);
    }
  }

  private async ensureGroup(): Promise<void> {
    const { group, streamPrefix, messageTimeoutMs } = this.options;
    const settings = persistentSubscriptionToAllSettingsFromDefaults({
      startFrom: START,
      messageTimeout: messageTimeoutMs,
      maxRetryCount: SERVER_MAX_RETRY_COUNT,
      // Checkpoint after every settled event (at most every 2 s): after a server restart or a
      // leader change the group resumes from its checkpoint, and all work after it is offered again.
      checkPointAfter: 2_000,
      checkPointLowerBound: 1,
      checkPointUpperBound: 100,
    });
    try {
      await this.client.createPersistentSubscriptionToAll(group, settings, { filter: streamNameFilter({ prefixes: [streamPrefix] }) });
    } catch (error) {
      if (!(error instanceof PersistentSubscriptionExistsError)) throw error;
    }
  }

  private startHandler(subscription: PersistentSubscriptionToAll, resolved: PersistentSubscriptionToAllResolvedEvent): void {
    const handler = this.handle(subscription, resolved).finally(() => {
      this.handlers.delete(handler);
      this.wakeLoop?.();
    });
    this.handlers.add(handler);
  }

  /** attempt = how many times the group has offered the event: the server's retry count + 1. */
  private async handle(subscription: PersistentSubscriptionToAll, resolved: PersistentSubscriptionToAllResolvedEvent): Promise<void> {
    const attempt = resolved.retryCount + 1;
    try {
      const event = await this.workEvent(resolved);
      if (!event) return await subscription.ack(resolved);
      try {
        await this.options.onEvent(event, attempt);
      } catch (error) {
        if (attempt <= this.options.maxRetries) return await subscription.nack('retry', reasonOf(error), resolved);
        await subscription.nack('park', reasonOf(error), resolved);
        this.reportParked(event, error);
        return;
      }
      await subscription.ack(resolved);
    } catch {
      // The ack/nack could not be sent, or the deleted-stream check could not be read: the event stays
      // unsettled and the server offers it again after the message timeout. If the call itself is
      // dead, the subscription loop reports that.
    }
  }

  /** The port's event, or undefined for what the group's members must not see (system events, deleted streams). */
  private async workEvent(resolved: PersistentSubscriptionToAllResolvedEvent): Promise<RecordedEvent | undefined> {
    const event = resolved.event;
    if (!event || isSystemEvent(event)) return undefined;
    const recorded = toRecordedEvent(event);
    return (await this.isVisible(recorded.streamName, recorded.revision)) ? recorded : undefined;
  }

  private async settleHandlers(): Promise<void> {
    while (this.handlers.size > 0) await Promise.allSettled([...this.handlers]);
  }

  private async leave(): Promise<void> {
    const subscription = this.subscription;
    if (!subscription) return;
    try {
      await subscription.unsubscribe();
    } catch {
      // Already gone; leaving is done either way.
    } finally {
      // Cancelling does not always end the readable; destroying it does, so the loop in run() returns.
      subscription.destroy();
    }
  }

  private reportParked(event: RecordedEvent, error: unknown): void {
    try {
      this.options.onParked?.(event, error);
    } catch (secondError) {
      console.error('Consumer group onParked callback threw', secondError);
    }
  }
}

function reasonOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
