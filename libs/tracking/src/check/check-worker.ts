import { joinGroupForGood } from '@rank/event-store/lasting-subscriptions';
import { parseEvent } from '@rank/domain/domain-event';
import type { EventStore, RecordedEvent, Subscription } from '@rank/event-store/event-store.port';
import type { SerpFetchOutcome, SerpRequest } from '@rank/serp/fetcher';
import {
  CHECK_WORK_EVENT_TYPES,
  CHECK_WORK_STREAM_PREFIX,
  CheckEvent,
  CheckRetryEvent,
  checksStreamName,
  CheckWorkEvent,
  checkWorkStreamName,
} from '../domain/check.events';
import { refundOfFailedCheck, type CreditRefund } from '../refund/refund.process';
import {
  checkGivenUp,
  checkResult,
  dropCheck,
  ProjectToCheck,
  QueuedCheck,
  resultEventId,
  retryEventId,
  startCheck,
} from './check.process';

export type { ProjectToCheck };

export interface CheckWorkerDependencies {
  store: EventStore;
  /** The project as it is now; null once deleted. Loaded once per check. */
  loadProject(projectId: string): Promise<ProjectToCheck | null>;
  /** Whether the account's project is still there (cheaper than loading it: its owner's workspace only). */
  projectStillExists(accountId: string, projectId: string): Promise<boolean>;
  fetchSerp(request: SerpRequest): Promise<SerpFetchOutcome>;
  /** Gives a check's credits back; must be idempotent for one check id. */
  refund(refund: CreditRefund): Promise<void>;
  now(): Date;
  log(message: string): void;
  /** Told when a check starts and how it ended, for metrics and the log. */
  report?: CheckReport;
}

/**
 * How a check's try ended: its result stored (completed, failed), another try later today (retrying),
 * or nothing stored because its project is gone (dropped). `keyword` and `source` (the SERP source
 * that answered, or the first that failed) are there when a page was asked for.
 */
export type CheckSettlement =
  | { outcome: 'completed'; keyword?: string; source?: string }
  | { outcome: 'dropped' }
  | { outcome: 'failed'; cause: string; reason: string; egress?: string; keyword?: string; source?: string }
  | {
      outcome: 'retrying';
      cause: string;
      reason: string;
      egress?: string;
      keyword: string;
      source?: string;
      attempt: number;
      retryAt: string;
    };

export interface CheckReport {
  started(check: QueuedCheck): void;
  /** `settlement` is undefined when the attempt threw and the check will be offered again. */
  finished(check: QueuedCheck, settlement: CheckSettlement | undefined): void;
}

export interface CheckWorkerOptions {
  /** Checks this scraper runs at once (each loads up to serpTop/10 pages). */
  concurrency: number;
  /**
   * A check not settled within this time is offered to another scraper. It must exceed the longest
   * check: 10 pages, each with its timeout and retries.
   */
  checkTimeoutMs?: number;
  /** Attempts of a check that keeps throwing (the store failing, say) before it is recorded as failed. */
  attempts?: number;
}

/** The consumer group every scraper joins: they share the queued checks. */
export const SCRAPER_GROUP = 'scrapers';
const DEFAULT_CHECK_TIMEOUT_MS = 10 * 60_000;
const DEFAULT_ATTEMPTS = 4;

/**
 * Runs SERP checks. Every scraper (a process's worker, or a fleet of scraper replicas) is a member of
 * one consumer group over the queued checks (`check-work-*` streams, see WorkDispatcher), so each
 * check goes to one scraper at a time and adding scrapers adds throughput. A check is settled once its
 * result is appended to the project's checks stream under an id derived from the check: delivery is
 * at-least-once (a scraper that dies or hangs has its checks offered to another), and a check run twice
 * is stored once. A check that cannot complete after its attempts is recorded as failed, so nothing
 * stays "processing".
 */
export class CheckWorker {
  private membership: Subscription | undefined;
  private readonly running = new Set<Promise<void>>();

  constructor(
    private readonly deps: CheckWorkerDependencies,
    private readonly options: CheckWorkerOptions,
  ) {}

  start(): void {
    const attempts = this.options.attempts ?? DEFAULT_ATTEMPTS;
    this.membership = joinGroupForGood(this.deps.store, {
      group: SCRAPER_GROUP,
      streamPrefix: CHECK_WORK_STREAM_PREFIX,
      maxInFlight: this.options.concurrency,
      messageTimeoutMs: this.options.checkTimeoutMs ?? DEFAULT_CHECK_TIMEOUT_MS,
      maxRetries: attempts,
      onEvent: (event, attempt) => this.track(this.handle(event, attempt, attempts)),
      onParked: (event, error) => this.deps.log(`check work ${event.id} was parked after ${attempts + 1} attempts: ${String(error)}`),
      onLost: (error, againInMs) =>
        this.deps.log(`the check worker left its consumer group, joining again in ${againInMs} ms: ${String(error)}`),
    });
  }

  /** Stops taking checks; the checks under way finish first. */
  async stop(): Promise<void> {
    await this.membership?.stop();
  }

  /** For tests: resolves when no check is under way. */
  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.allSettled([...this.running]);
  }

  private track(run: Promise<void>): Promise<void> {
    this.running.add(run);
    return run.finally(() => this.running.delete(run));
  }

  private async handle(event: RecordedEvent, attempt: number, attempts: number): Promise<void> {
    const queued = parseEvent<CheckWorkEvent>(event, CHECK_WORK_EVENT_TYPES);
    if (!queued) return;
    const check = queued.data;
    let settlement: CheckSettlement | undefined;
    this.deps.report?.started(check);
    try {
      settlement = await this.runCheck(check);
    } catch (error) {
      if (attempt < attempts) throw error;
      // The last attempt: record the failure (which refunds an on-demand check) rather than leave it open.
      this.deps.log(`check ${check.checkId} failed ${attempt} times, recording it as failed: ${String(error)}`);
      await this.appendResult(check, checkGivenUp(check, this.deps.now()));
      settlement = { outcome: 'failed', cause: 'gave_up', reason: `no result after ${attempt} attempts: ${String(error)}` };
    } finally {
      this.deps.report?.finished(check, settlement);
    }
  }

  private async runCheck(check: QueuedCheck): Promise<CheckSettlement> {
    const project = await this.deps.loadProject(check.projectId);
    if (!project) return this.drop(dropCheck(check));
    const start = startCheck(check, project, this.deps.now());
    const fetched = start.kind === 'fetch' ? await this.deps.fetchSerp(start.request) : undefined;
    const result = start.kind === 'record' ? start.result : checkResult(check, project, fetched!, this.deps.now());
    // The project may have been deleted while its page loaded: writing now would bring its stream back.
    if (!(await this.deps.projectStillExists(project.accountId, check.projectId))) return this.drop(dropCheck(check));
    const keyword = start.kind === 'fetch' ? start.request.keyword : undefined;
    const failure = fetched?.kind === 'failed' ? fetched : undefined;
    if (result.type === 'CheckRetryScheduled') {
      await this.appendRetry(result);
      const { attempt, retryAt, reason } = result.data;
      return {
        outcome: 'retrying',
        cause: failure?.cause ?? 'other',
        reason,
        egress: failure?.egress,
        keyword: keyword ?? '',
        source: failure?.source,
        attempt,
        retryAt,
      };
    }
    await this.appendResult(check, result);
    // Deleted between the look above and the write, the project's erasing may have missed the stream
    // this write brought back: it is erased again, and the check ends as one of a deleted project
    // (nothing kept, its credits back; a refund asked twice is paid once).
    if (!(await this.deps.projectStillExists(project.accountId, check.projectId))) {
      await this.deps.store.deleteStream(checksStreamName(check.projectId, check.keywordId));
      return this.drop(dropCheck(check));
    }
    if (result.type === 'CheckCompleted') return { outcome: 'completed', keyword, source: result.data.source };
    return {
      outcome: 'failed',
      cause: failure ? (failure.cause ?? 'other') : 'keyword_removed',
      reason: result.data.reason,
      egress: failure?.egress,
      keyword,
      source: failure?.source,
    };
  }

  /** A failed try of a scheduled check, to be tried again: recorded in its work order's stream, once per try. */
  private async appendRetry(retry: CheckRetryEvent): Promise<void> {
    await this.deps.store.appendToStream(
      checkWorkStreamName(retry.data.batchId),
      [{ id: retryEventId(retry.data, retry.data.attempt), type: retry.type, data: retry.data }],
      { expectedRevision: 'any' },
    );
  }

  private async drop({ refund }: ReturnType<typeof dropCheck>): Promise<CheckSettlement> {
    if (refund) await this.deps.refund(refund);
    return { outcome: 'dropped' };
  }

  /**
   * Stores the check's result; a failure gives its credits back at once. The dispatcher also pays it
   * as it follows the log (the account pays a check once), but a project deleted before the
   * dispatcher reads the failure (a projector behind or down) takes the failure with it. A refund
   * that cannot be paid here is left to the dispatcher: the result is stored, so the check is done.
   */
  private async appendResult(check: QueuedCheck, result: CheckEvent): Promise<void> {
    await this.deps.store.appendToStream(
      checksStreamName(check.projectId, check.keywordId),
      [{ id: resultEventId(check), type: result.type, data: result.data }],
      { expectedRevision: 'any' },
    );
    const refund = result.type === 'CheckFailed' ? refundOfFailedCheck(result) : undefined;
    if (!refund) return;
    try {
      await this.deps.refund(refund);
    } catch (error) {
      this.deps.log(`the refund of failed check ${check.checkId} is left to the dispatcher: ${String(error)}`);
    }
  }
}
