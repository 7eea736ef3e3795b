import type { TrackedKeyword } from '@rank/projects/domain/project-content.events';
import { uuidFromName } from '@rank/domain/deterministic-uuid';
import { CHECK_WORK_STREAM_PREFIX, CheckEvent, checksStreamName, CheckWorkEvent, RankedResult } from '../domain/check.events';
import { projectPosition } from '../domain/project-position';
import type { EventStore, RecordedEvent, Subscription } from '@rank/event-store/event-store.port';
import type { SerpFetchOutcome, SerpRequest } from '@rank/serp/fetcher';
import type { CreditRefund } from './check-work';

/** What the worker needs to know of a project when it runs its checks. */
export interface ProjectToCheck {
  accountId: string;
  /** The project's domain and aliases. */
  ownDomains: string[];
  serpTop: 50 | 100;
  keywords: TrackedKeyword[];
}

export interface CheckWorkerDependencies {
  store: EventStore;
  /** The project as it is now; null once deleted. */
  loadProject(projectId: string): Promise<ProjectToCheck | null>;
  fetchSerp(request: SerpRequest): Promise<SerpFetchOutcome>;
  /** Gives a check's credits back; must be idempotent for one check id. */
  refund(refund: CreditRefund): Promise<void>;
  now(): Date;
  log(message: string): void;
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

  constructor(private readonly deps: CheckWorkerDependencies, private readonly options: CheckWorkerOptions) {}

  start(): void {
    const attempts = this.options.attempts ?? DEFAULT_ATTEMPTS;
    this.membership = this.deps.store.joinConsumerGroup({
      group: SCRAPER_GROUP,
      streamPrefix: CHECK_WORK_STREAM_PREFIX,
      maxInFlight: this.options.concurrency,
      messageTimeoutMs: this.options.checkTimeoutMs ?? DEFAULT_CHECK_TIMEOUT_MS,
      maxRetries: attempts,
      onEvent: (event, attempt) => this.track(this.handle(event, attempt, attempts)),
      onParked: (event, error) => this.deps.log(`check work ${event.id} was parked after ${attempts + 1} attempts: ${String(error)}`),
      onError: (error) => this.deps.log(`the check worker left its consumer group: ${String(error)}`),
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
    if (event.type !== 'CheckQueued') return;
    const queued = (event as unknown as CheckWorkEvent).data;
    try {
      await this.runCheck(queued);
    } catch (error) {
      if (attempt < attempts) throw error;
      // The last attempt: record the failure (which refunds an on-demand check) rather than leave it open.
      this.deps.log(`check ${queued.checkId} failed ${attempt} times, recording it as failed: ${String(error)}`);
      await this.appendResult(queued, {
        type: 'CheckFailed',
        data: { ...baseOf(queued), failedAt: this.deps.now().toISOString(), reason: 'The check could not be completed after several attempts', accountId: queued.accountId, refundCredits: queued.creditsPerCheck },
      });
    }
  }

  private async runCheck(queued: CheckWorkEvent['data']): Promise<void> {
    const project = await this.deps.loadProject(queued.projectId);
    if (!project) return this.refundUnrun(queued);
    const keyword = project.keywords.find((k) => k.keywordId === queued.keywordId);
    const base = baseOf(queued);
    let event: CheckEvent;
    if (!keyword) {
      event = { type: 'CheckFailed', data: { ...base, failedAt: this.deps.now().toISOString(), reason: 'The keyword was removed from the project before it was checked', accountId: queued.accountId, refundCredits: queued.creditsPerCheck } };
    } else {
      const outcome = await this.deps.fetchSerp({ keyword: keyword.value, geoCode: keyword.geoCode, langCode: keyword.langCode, depth: project.serpTop });
      const at = this.deps.now().toISOString();
      if (outcome.kind === 'success') {
        const results: RankedResult[] = outcome.organic.slice(0, project.serpTop).map((r) => ({ position: r.position, url: r.url, title: r.title, domain: r.domain }));
        const aiOverview: RankedResult[] = outcome.aiOverview.map((r) => ({ position: r.position, url: r.url, title: r.title, domain: r.domain }));
        event = { type: 'CheckCompleted', data: { ...base, completedAt: at, serpTop: project.serpTop, position: projectPosition(results, project.ownDomains), results, aiOverview } };
      } else {
        event = { type: 'CheckFailed', data: { ...base, failedAt: at, reason: outcome.reason, accountId: queued.accountId, refundCredits: queued.creditsPerCheck } };
      }
    }
    // The project may have been deleted while its page loaded: writing now would bring its stream back.
    if (!(await this.deps.loadProject(queued.projectId))) return this.refundUnrun(queued);
    await this.appendResult(queued, event);
  }

  /** A deleted project's checks store no result (its streams are gone), but on-demand credits go back. */
  private async refundUnrun(queued: CheckWorkEvent['data']): Promise<void> {
    if (queued.creditsPerCheck > 0) {
      await this.deps.refund({ accountId: queued.accountId, batchId: queued.batchId, checkId: queued.checkId, credits: queued.creditsPerCheck });
    }
  }

  private async appendResult(queued: CheckWorkEvent['data'], event: CheckEvent): Promise<void> {
    await this.deps.store.appendToStream(
      checksStreamName(queued.projectId, queued.keywordId),
      [{ id: uuidFromName(`check-result:${queued.checkId}`), type: event.type, data: event.data as unknown as Record<string, unknown> }],
      { expectedRevision: 'any' },
    );
  }
}

function baseOf(queued: CheckWorkEvent['data']) {
  return { checkId: queued.checkId, batchId: queued.batchId, projectId: queued.projectId, keywordId: queued.keywordId };
}
