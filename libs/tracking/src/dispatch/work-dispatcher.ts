import { createHash } from 'node:crypto';
import { uuidFromName } from '@rank/domain/deterministic-uuid';
import { STREAM_CATEGORIES } from '@rank/domain/stream-categories';
import { CheckWorkEvent, checkWorkStreamName } from '../domain/check.events';
import { checkIdFor } from '../domain/project-position';
import type { EventStore, NewEvent, Subscription } from '@rank/event-store/event-store.port';
import { CheckBatch, checkWorkOf, CreditRefund } from '../check/check-work';
import type { ProjectToCheck } from '../check/check-worker';

export interface WorkDispatcherDependencies {
  store: EventStore;
  /** The project as it is now; null once deleted. */
  loadProject(projectId: string): Promise<ProjectToCheck | null>;
  /** Gives a failed check's credits back; must be idempotent for one check id. */
  refund(refund: CreditRefund): Promise<void>;
  log(message: string): void;
}

/** Work events per append: a 3,500-keyword batch stays well under EventStoreDB's append size limit. */
const APPEND_CHUNK = 250;
export const DISPATCHER_CHECKPOINT_STREAM = STREAM_CATEGORIES['check-dispatcher-checkpoint']();

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

/**
 * Follows the log for work orders and turns each into one `CheckQueued` per keyword in the batch's
 * work stream, which the scrapers' consumer group shares. It also gives back the credits of failed
 * on-demand checks, once per stored failure. Both are idempotent (event ids derived from the check,
 * refunds keyed by check id), so running it again over the same log, or two of them, changes nothing:
 * its checkpoint only saves work.
 */
export class WorkDispatcher {
  private subscription: Subscription | undefined;
  private lastHandled = 0;
  private saved = 0;
  private timer: NodeJS.Timeout | undefined;
  private caughtUpWaiters: Array<{ position: number; resolve: () => void }> = [];

  constructor(private readonly deps: WorkDispatcherDependencies, private readonly checkpointEveryMs = 1_000) {}

  async start(): Promise<void> {
    const [last] = await this.deps.store.readStream(DISPATCHER_CHECKPOINT_STREAM, { direction: 'backwards', maxCount: 1 });
    this.saved = last ? Number((last.data as { position: number }).position) : 0;
    this.lastHandled = this.saved;
    this.subscription = this.deps.store.subscribeToAll({
      afterPosition: this.saved,
      onEvent: async (event) => {
        const work = checkWorkOf(event);
        if (work.kind === 'batch') await this.queue(work.batch);
        if (work.kind === 'refund') await this.deps.refund(work.refund);
        // Its own checkpoints move nothing worth saving: saving for them would save forever.
        this.handled(event.position, event.streamName !== DISPATCHER_CHECKPOINT_STREAM);
      },
      onError: (error) => this.deps.log(`the check dispatcher stopped following the log: ${String(error)}`),
    });
  }

  async stop(): Promise<void> {
    await this.subscription?.stop();
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.saveCheckpoint();
  }

  /** For tests: resolves once every event up to the log's current end has been dispatched. */
  async caughtUp(): Promise<void> {
    let newest = this.lastHandled;
    for (let page = await this.deps.store.readAll({ afterPosition: newest, maxCount: 1000 }); page.length > 0; page = await this.deps.store.readAll({ afterPosition: newest, maxCount: 1000 })) {
      newest = page[page.length - 1]!.position;
    }
    if (newest <= this.lastHandled) return;
    await new Promise<void>((resolve) => this.caughtUpWaiters.push({ position: newest, resolve }));
  }

  private async queue(batch: CheckBatch): Promise<void> {
    const project = await this.deps.loadProject(batch.projectId);
    const keywordIds = batch.keywordIds ?? project?.keywords.map((k) => k.keywordId) ?? [];
    const checks = keywordIds.map((keywordId) => ({ keywordId, checkId: checkIdFor(batch.batchId, keywordId, batch.requestedAt, sha256) }));
    if (!project) {
      // Deleted before its checks were queued: nothing to check, but on-demand credits go back.
      if (batch.creditsPerCheck > 0) {
        for (const { checkId } of checks) await this.deps.refund({ accountId: batch.accountId, batchId: batch.batchId, checkId, credits: batch.creditsPerCheck });
      }
      return;
    }
    const events: Array<NewEvent & CheckWorkEvent> = checks.map(({ keywordId, checkId }) => ({
      id: uuidFromName(`check-queued:${checkId}`),
      type: 'CheckQueued',
      data: {
        checkId,
        batchId: batch.batchId,
        projectId: batch.projectId,
        accountId: batch.accountId,
        keywordId,
        creditsPerCheck: batch.creditsPerCheck,
        requestedAt: batch.requestedAt.toISOString(),
      },
    }));
    for (let i = 0; i < events.length; i += APPEND_CHUNK) {
      // Appending the same ids again (a replay) stores nothing new, whatever the stream's revision.
      await this.deps.store.appendToStream(checkWorkStreamName(batch.batchId), events.slice(i, i + APPEND_CHUNK), { expectedRevision: 'any' });
    }
  }

  private handled(position: number, worthSaving: boolean): void {
    this.lastHandled = position;
    const ready = this.caughtUpWaiters.filter((w) => w.position <= position);
    this.caughtUpWaiters = this.caughtUpWaiters.filter((w) => w.position > position);
    for (const waiter of ready) waiter.resolve();
    if (!worthSaving) return;
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      void this.saveCheckpoint().catch((e: unknown) => this.deps.log(`could not save the dispatcher checkpoint: ${String(e)}`));
    }, this.checkpointEveryMs);
  }

  private async saveCheckpoint(): Promise<void> {
    const position = this.lastHandled;
    if (position <= this.saved) return;
    await this.deps.store.appendToStream(
      DISPATCHER_CHECKPOINT_STREAM,
      [{ id: uuidFromName(`${DISPATCHER_CHECKPOINT_STREAM}:${position}`), type: 'DispatcherCheckpointed', data: { position } }],
      { expectedRevision: 'any' },
    );
    this.saved = Math.max(this.saved, position);
  }
}
