import { Inject, Injectable, Logger } from '@nestjs/common';
import { Cron, CronExpression } from '@nestjs/schedule';
import type { EventStore } from '@rank/event-store/event-store.port';
import type { AppConfig } from '@rank/platform/config/app-config';
import { APP_CONFIG, CLOCK, Clock, EVENT_STORE } from '@rank/platform/tokens';
import { checkWorkStreamName } from '../domain/check.events';
import { DAY_MS } from '../domain/schedule/local-day';
import { requeueEventId, retryOf } from '../check/check.process';
import { CheckProgressReader } from '../reads/check-progress/check-progress.reader';

/** Retries queued in one pass; the rest wait for the next minute. */
const BATCH = 1_000;
/**
 * Requests older than this are not looked at. A retry stays within its local day, so two days would
 * do while the scheduler runs; after downtime, stranded retries up to a week old are still queued,
 * and their checks fail at once as their day has ended (rather than stay waiting for ever).
 */
const LOOK_BACK_MS = 8 * DAY_MS;

/**
 * Every minute, queues the retries of scheduled checks whose time has come: each one a new
 * `CheckQueued` (the same check, its next try) in its work order's stream, where the scrapers take
 * it like any other. The event id is the try's, so replicas that queue the same retry store it once.
 */
@Injectable()
export class CheckRetryTimer {
  private readonly logger = new Logger('Scheduler');
  private running: Promise<number> | undefined;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly progress: CheckProgressReader,
  ) {}

  @Cron(CronExpression.EVERY_MINUTE)
  async onMinute(): Promise<void> {
    if (!this.config.roles.has('scheduler') || this.running) return;
    try {
      await this.queueDueRetries();
    } catch (error) {
      this.logger.error(`queueing check retries failed, will try again next minute: ${String(error)}`);
    }
  }

  /** Queues every retry due now; returns how many. */
  queueDueRetries(): Promise<number> {
    this.running ??= this.queueAll().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  private async queueAll(): Promise<number> {
    const now = this.clock.now();
    const due = await this.progress.dueRetries(now, new Date(now.getTime() - LOOK_BACK_MS), BATCH);
    for (const retry of due) {
      const queued = retryOf(retry);
      await this.store.appendToStream(
        checkWorkStreamName(retry.batchId),
        [{ id: requeueEventId(retry, queued.data.attempt ?? retry.attempt + 1), type: queued.type, data: queued.data }],
        { expectedRevision: 'any' },
      );
    }
    if (due.length > 0) this.logger.log(`queued ${due.length} check retr${due.length === 1 ? 'y' : 'ies'} whose time had come`);
    return due.length;
  }
}
