import { isCheckpoint } from '@rank/domain/checkpoints';
import { followAllForGood } from '@rank/event-store/lasting-subscriptions';
import { uuidFromName } from '@rank/domain/deterministic-uuid';
import { parseEvent } from '@rank/domain/domain-event';
import { STREAM_CATEGORIES } from '@rank/domain/stream-categories';
import type { EventStore, Subscription } from '@rank/event-store/event-store.port';
import type { WorkspaceEvent } from '@rank/projects/domain/workspace.events';
import type { ProjectToCheck } from '../check/check.process';
import { CHECK_EVENT_TYPES, CHECK_WORK_EVENT_TYPES, CheckEvent, CheckWorkEvent, checkWorkStreamName } from '../domain/check.events';
import { CreditRefund, refundOfFailedCheck } from '../refund/refund.process';
import { dispatchWorkOrder, WorkOrder, workOrderOf } from './dispatch.process';

export interface WorkDispatcherDependencies {
  store: EventStore;
  /** The project as it is now; null once deleted. */
  loadProject(projectId: string): Promise<ProjectToCheck | null>;
  /** Gives a failed check's credits back; must be idempotent for one check id. */
  refund(refund: CreditRefund): Promise<void>;
  /** Erases a deleted project's streams; must be idempotent (the request that deleted it erases them too). */
  eraseProject(projectId: string): Promise<void>;
  log(message: string): void;
  /** Told how many checks an order queued (a replay after a restart tells again: the metric is approximate). */
  queued?(count: number): void;
}

/** Queued checks per append: a 3,500-keyword work order stays well under EventStoreDB's append size limit. */
const APPEND_CHUNK = 250;
export const DISPATCHER_CHECKPOINT_STREAM = STREAM_CATEGORIES['check-dispatcher-checkpoint']();
/** How far the dispatcher has followed the log, in its own stream. */
type DispatcherCheckpointed = { type: 'DispatcherCheckpointed'; data: { position: number } };

/**
 * Follows the log for work orders and turns each into one `CheckQueued` per keyword in the order's
 * work stream (see dispatch.process.ts), which the scrapers' consumer group shares. It also gives back the credits of failed
 * on-demand checks, once per stored failure. And it finishes the erasure of each deleted project:
 * the request that deletes a project erases its streams after recording the delete, so a process
 * killed in between would leave them in the log for good. All three are idempotent (event ids derived
 * from the check, refunds keyed by check id, erasing an absent stream does nothing), so running it
 * again over the same log, or two of them, changes nothing: its checkpoint only saves work.
 */
export class WorkDispatcher {
  private subscription: Subscription | undefined;
  private lastHandled = 0;
  /** The last position that was not a checkpoint's: what a save records. */
  private lastWorthSaving = 0;
  private saved = 0;
  private timer: NodeJS.Timeout | undefined;
  private caughtUpWaiters: Array<{ position: number; resolve: () => void }> = [];

  constructor(
    private readonly deps: WorkDispatcherDependencies,
    private readonly checkpointEveryMs = 1_000,
  ) {}

  async start(): Promise<void> {
    const [last] = await this.deps.store.readStream(DISPATCHER_CHECKPOINT_STREAM, { direction: 'backwards', maxCount: 1 });
    const checkpoint = last && parseEvent<DispatcherCheckpointed>(last, ['DispatcherCheckpointed']);
    this.saved = checkpoint ? Number(checkpoint.data.position) : 0;
    this.lastHandled = this.saved;
    this.lastWorthSaving = this.saved;
    this.subscription = followAllForGood(this.deps.store, {
      afterPosition: this.saved,
      onEvent: async (event) => {
        const order = workOrderOf(event);
        if (order) await this.dispatch(order);
        const result = parseEvent<CheckEvent>(event, CHECK_EVENT_TYPES);
        const refund = result?.type === 'CheckFailed' ? refundOfFailedCheck(result) : undefined;
        if (refund) await this.deps.refund(refund);
        const deleted = parseEvent<Extract<WorkspaceEvent, { type: 'ProjectDeleted' }>>(event, ['ProjectDeleted']);
        if (deleted) await this.deps.eraseProject(deleted.data.projectId);
        // Checkpoints (its own, the other processes') move nothing worth saving: saving for them would save forever.
        this.handled(event.position, !isCheckpoint(event));
      },
      onLost: (error, againInMs) =>
        this.deps.log(`the check dispatcher lost the log, following it again in ${againInMs} ms: ${String(error)}`),
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
    for (
      let page = await this.deps.store.readAll({ afterPosition: newest, maxCount: 1000 });
      page.length > 0;
      page = await this.deps.store.readAll({ afterPosition: newest, maxCount: 1000 })
    ) {
      newest = page[page.length - 1]!.position;
    }
    if (newest <= this.lastHandled) return;
    await new Promise<void>((resolve) => this.caughtUpWaiters.push({ position: newest, resolve }));
  }

  private async dispatch(order: WorkOrder): Promise<void> {
    const project = await this.deps.loadProject(order.projectId);
    // Once the project is gone, which of the order's checks were queued before decides what is owed.
    const queuedBefore = project === null ? await this.queuedCheckIds(order.orderId) : undefined;
    const dispatch = dispatchWorkOrder(order, project?.keywords ?? null, queuedBefore);
    if (dispatch.kind === 'refund') {
      for (const refund of dispatch.refunds) await this.deps.refund(refund);
      return;
    }
    for (let i = 0; i < dispatch.checks.length; i += APPEND_CHUNK) {
      // Appending the same ids again (a replay) stores nothing new, whatever the stream's revision.
      await this.deps.store.appendToStream(dispatch.streamName, dispatch.checks.slice(i, i + APPEND_CHUNK), { expectedRevision: 'any' });
    }
    this.deps.queued?.(dispatch.checks.length);
  }

  private async queuedCheckIds(orderId: string): Promise<Set<string>> {
    const queued = (await this.deps.store.readStream(checkWorkStreamName(orderId))).map(
      (event) => parseEvent<CheckWorkEvent>(event, CHECK_WORK_EVENT_TYPES)?.data.checkId,
    );
    return new Set(queued.filter((checkId): checkId is string => checkId !== undefined));
  }

  private handled(position: number, worthSaving: boolean): void {
    this.lastHandled = position;
    if (worthSaving) this.lastWorthSaving = position;
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
    // Not past the checkpoints read since the last event worth one: a save at each stop for them alone
    // added an event per restart to the log.
    const position = this.lastWorthSaving;
    if (position <= this.saved) return;
    await this.deps.store.appendToStream(
      DISPATCHER_CHECKPOINT_STREAM,
      [{ id: uuidFromName(`${DISPATCHER_CHECKPOINT_STREAM}:${position}`), type: 'DispatcherCheckpointed', data: { position } }],
      { expectedRevision: 'any' },
    );
    this.saved = Math.max(this.saved, position);
  }
}
