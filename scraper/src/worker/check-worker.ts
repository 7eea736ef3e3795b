import { createHash } from 'node:crypto';
import type { TrackedKeyword } from '../../../libs/domain/src/projects/project-content.events';
import { uuidFromName } from '../../../libs/domain/src/shared/deterministic-uuid';
import { CheckEvent, checksStreamName, RankedResult } from '../../../libs/domain/src/tracking/check.events';
import { checkIdFor, projectPosition } from '../../../libs/domain/src/tracking/project-position';
import type { EventStore, Subscription } from '../../../libs/event-store/src/event-store.port';
import type { SerpFetchOutcome, SerpRequest } from '../serp-fetcher';
import { Semaphore } from '../serp-fetcher/semaphore';
import { CheckBatch, checkWorkOf, CreditRefund } from './check-work';

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
  /** Gives a failed check's credits back; must be idempotent for one check id. */
  refund(refund: CreditRefund): Promise<void>;
  now(): Date;
  log(message: string): void;
}

export interface CheckWorkerOptions {
  /** Checks run at once (each loads up to serpTop/10 pages). */
  concurrency: number;
  /** This worker takes the batches whose hash falls in its partition: `index` of `count`. */
  partition: { index: number; count: number };
  /** How often the checkpoint is saved while it moves. */
  checkpointEveryMs?: number;
}

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

/**
 * Runs SERP checks. It follows the event log for work orders (on-demand scrapes, scheduled slots)
 * and for failed checks to refund, runs the checks in Chromium, and appends each result to the
 * project's checks stream under an id derived from the check: at-least-once delivery, exactly one
 * stored result. Its checkpoint never passes a batch that is not finished, so after a crash or a
 * restart the unfinished batches run again and nothing stays "processing".
 */
export class CheckWorker {
  private subscription: Subscription | undefined;
  private readonly slots: Semaphore;
  /** Log positions of batches not yet finished. */
  private readonly unfinished = new Set<number>();
  private readonly running = new Set<Promise<void>>();
  private lastSeenPosition = 0;
  private savedCheckpoint = 0;
  private checkpointTimer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(private readonly deps: CheckWorkerDependencies, private readonly options: CheckWorkerOptions) {
    this.slots = new Semaphore(options.concurrency);
  }

  private get checkpointStream(): string {
    return `scraper-checkpoint-${this.options.partition.index}-of-${this.options.partition.count}`;
  }

  async start(): Promise<void> {
    const [last] = await this.deps.store.readStream(this.checkpointStream, { direction: 'backwards', maxCount: 1 });
    this.savedCheckpoint = last ? Number((last.data as { position: number }).position) : 0;
    this.lastSeenPosition = this.savedCheckpoint;
    this.subscription = this.deps.store.subscribeToAll({
      afterPosition: this.savedCheckpoint,
      onEvent: async (event) => {
        const work = checkWorkOf(event);
        if (work.kind === 'batch' && this.isMine(work.batch.batchId)) this.startBatch(work.batch);
        if (work.kind === 'refund' && this.isMine(work.refund.batchId)) await this.deps.refund(work.refund);
        this.lastSeenPosition = event.position;
        this.scheduleCheckpoint();
      },
      onError: (error) => this.deps.log(`check worker stopped following the log: ${String(error)}`),
    });
  }

  /** Stops taking work, lets the checks under way finish, saves the checkpoint. */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.subscription?.stop();
    await Promise.allSettled([...this.running]);
    clearTimeout(this.checkpointTimer);
    await this.saveCheckpoint();
  }

  /** For tests and shutdown: resolves when every batch seen so far is finished. */
  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.allSettled([...this.running]);
  }

  private isMine(batchId: string): boolean {
    const { index, count } = this.options.partition;
    return count <= 1 || parseInt(sha256(batchId).slice(0, 8), 16) % count === index;
  }

  private startBatch(batch: CheckBatch): void {
    this.unfinished.add(batch.position);
    const run = this.runBatch(batch)
      .then(() => {
        this.unfinished.delete(batch.position);
      })
      .catch((error: unknown) => this.deps.log(`batch ${batch.batchId} of project ${batch.projectId} did not finish, it will run again after a restart: ${String(error)}`))
      .finally(() => {
        this.running.delete(run);
        this.scheduleCheckpoint();
      });
    this.running.add(run);
  }

  private async runBatch(batch: CheckBatch): Promise<void> {
    const project = await this.deps.loadProject(batch.projectId);
    if (!project) {
      // Deleted before its checks ran: nothing to check, but on-demand credits go back.
      for (const keywordId of batch.keywordIds ?? []) {
        const checkId = checkIdFor(batch.batchId, keywordId, batch.requestedAt, sha256);
        if (batch.creditsPerCheck > 0) await this.deps.refund({ accountId: batch.accountId, batchId: batch.batchId, checkId, credits: batch.creditsPerCheck });
      }
      return;
    }
    const byId = new Map(project.keywords.map((k) => [k.keywordId, k]));
    const wanted = batch.keywordIds ?? project.keywords.map((k) => k.keywordId);
    await Promise.all(wanted.map((keywordId) => this.slots.run(() => this.runCheck(batch, project, keywordId, byId.get(keywordId)))));
  }

  private async runCheck(batch: CheckBatch, project: ProjectToCheck, keywordId: string, keyword: TrackedKeyword | undefined): Promise<void> {
    if (this.stopped) throw new Error('worker stopping');
    const checkId = checkIdFor(batch.batchId, keywordId, batch.requestedAt, sha256);
    const base = { checkId, batchId: batch.batchId, projectId: batch.projectId, keywordId };
    let event: CheckEvent;
    if (!keyword) {
      event = { type: 'CheckFailed', data: { ...base, failedAt: this.deps.now().toISOString(), reason: 'The keyword was removed from the project before it was checked', accountId: batch.accountId, refundCredits: batch.creditsPerCheck } };
    } else {
      const outcome = await this.deps.fetchSerp({ keyword: keyword.value, geoCode: keyword.geoCode, langCode: keyword.langCode, depth: project.serpTop });
      const at = this.deps.now().toISOString();
      if (outcome.kind === 'success') {
        const results: RankedResult[] = outcome.organic.slice(0, project.serpTop).map((r) => ({ position: r.position, url: r.url, title: r.title, domain: r.domain }));
        const aiOverview: RankedResult[] = outcome.aiOverview.map((r) => ({ position: r.position, url: r.url, title: r.title, domain: r.domain }));
        event = { type: 'CheckCompleted', data: { ...base, completedAt: at, serpTop: project.serpTop, position: projectPosition(results, project.ownDomains), results, aiOverview } };
      } else {
        event = { type: 'CheckFailed', data: { ...base, failedAt: at, reason: outcome.reason, accountId: batch.accountId, refundCredits: batch.creditsPerCheck } };
      }
    }
    // The project may have been deleted while its page loaded: writing now would bring its stream back.
    if (!(await this.deps.loadProject(batch.projectId))) return;
    await this.deps.store.appendToStream(
      checksStreamName(batch.projectId),
      [{ id: uuidFromName(`check-result:${checkId}`), type: event.type, data: event.data as unknown as Record<string, unknown> }],
      { expectedRevision: 'any' },
    );
  }

  private scheduleCheckpoint(): void {
    if (this.checkpointTimer || this.stopped) return;
    this.checkpointTimer = setTimeout(() => {
      this.checkpointTimer = undefined;
      void this.saveCheckpoint().catch((e: unknown) => this.deps.log(`could not save the worker checkpoint: ${String(e)}`));
    }, this.options.checkpointEveryMs ?? 1_000);
  }

  /** Up to just before the oldest unfinished batch, else everything seen. */
  private async saveCheckpoint(): Promise<void> {
    const oldestUnfinished = Math.min(...this.unfinished);
    const position = Number.isFinite(oldestUnfinished) ? oldestUnfinished - 1 : this.lastSeenPosition;
    if (position <= this.savedCheckpoint) return;
    await this.deps.store.appendToStream(this.checkpointStream, [{ id: uuidFromName(`${this.checkpointStream}:${position}`), type: 'WorkerCheckpointed', data: { position } }], { expectedRevision: 'any' });
    this.savedCheckpoint = position;
  }
}
