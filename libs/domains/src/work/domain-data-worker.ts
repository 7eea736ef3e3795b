import { isCheckpoint } from '@rank/domain/checkpoints';
import { followAllForGood } from '@rank/event-store/lasting-subscriptions';
import { uuidFromName } from '@rank/domain/deterministic-uuid';
import { parseEvent } from '@rank/domain/domain-event';
import { STREAM_CATEGORIES } from '@rank/domain/stream-categories';
import type { EventStore, RecordedEvent, Subscription } from '@rank/event-store/event-store.port';
import type { FetchRecord } from '../domain/domain-data';
import { domainWorkOf, DomainWorkTrigger, jobKey, ScheduledJob, shouldFetch } from './domain-work.process';

export interface DomainDataWorkerDependencies {
  store: EventStore;
  now(): Date;
  /** What the domain's stream knows of one fetch (its last success, its failures since). */
  fetchRecord(job: ScheduledJob['job']): Promise<FetchRecord>;
  /**
   * Fetches and records the outcome (data or failure), or hands it to the scrapers; never throws for a
   * provider failure. Its calls are cut off when the process stops (the fetcher's stop).
   */
  run(scheduled: ScheduledJob): Promise<void>;
  log(message: string): void;
  /** Fetches at once (each may be a Lighthouse run of 10–30 s); one domain holds all but one of them at most. */
  concurrency?: number;
  /** How often due jobs are looked for (the clock may be a test's, moved by hand). */
  tickMs?: number;
}

export const FETCH_WORKER_CHECKPOINT_STREAM = STREAM_CATEGORIES['fetch-worker-checkpoint']();
type FetchWorkerCheckpointed = { type: 'FetchWorkerCheckpointed'; data: { position: number } };

const CHECKPOINT_EVERY_MS = 2_000;
const TRIGGER_TYPES: readonly DomainWorkTrigger['type'][] = ['ProjectCreated', 'ProjectUpdated', 'CheckCompleted', 'DomainDataFetchFailed'];

interface Pending {
  scheduled: ScheduledJob;
  dueAt: number;
  /** The log position of the event that asked for it: the checkpoint stays before it until it is done. */
  position: number;
}

/**
 * One wait per fetch: whether a job asked for replaces the one waiting for the same fetch. A retry of
 * a round stands for a trigger's fetch (which waits for the round's retries: see shouldFetch), in
 * whichever order they come; otherwise the earliest due wins. Before, a completed check's fetch of
 * the page, due at once, replaced the retry waiting for it and was then refused: the retry was lost
 * (a failed page-speed or CrUX fetch of a page that kept ranking was never tried again).
 */
function replaces(asked: ScheduledJob, dueAt: number, waiting: Pending): boolean {
  const askedRetry = asked.retryOfRound !== undefined;
  const waitingRetry = waiting.scheduled.retryOfRound !== undefined;
  if (askedRetry !== waitingRetry) return askedRetry;
  return dueAt < waiting.dueAt;
}

/**
 * Follows the log for the triggers of domain-data work (see domain-work.process.ts) and runs the
 * fetches they ask for, off the request path: a few at once, each when due, skipped when the data
 * is fresh by then. A failure is recorded by `run` as an event, which comes back through the log as
 * the trigger of its retry. The checkpoint never passes a job not yet done, so a restart re-asks for
 * unfinished work (and the freshness rule drops what was done meanwhile).
 */
export class DomainDataWorker {
  private subscription: Subscription | undefined;
  private readonly pending = new Map<string, Pending>();
  private readonly running = new Map<string, { job: Pending; done: Promise<void> }>();
  private lastSaveAt = 0;
  private lastHandled = 0;
  private saved = 0;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(private readonly deps: DomainDataWorkerDependencies) {}

  async start(): Promise<void> {
    const [last] = await this.deps.store.readStream(FETCH_WORKER_CHECKPOINT_STREAM, { direction: 'backwards', maxCount: 1 });
    const checkpoint = last && parseEvent<FetchWorkerCheckpointed>(last, ['FetchWorkerCheckpointed']);
    this.saved = checkpoint ? Number(checkpoint.data.position) : 0;
    this.lastHandled = this.saved;
    this.subscription = followAllForGood(this.deps.store, {
      afterPosition: this.saved,
      onEvent: async (event) => {
        // Checkpoints (its own, the other processes') move nothing worth saving: saving for them would save forever.
        if (isCheckpoint(event)) return;
        this.handle(event);
        this.lastHandled = event.position;
      },
      onLost: (error, againInMs) =>
        this.deps.log(`the domain-data worker lost the log, following it again in ${againInMs} ms: ${String(error)}`),
    });
    this.tick();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.subscription?.stop();
    await Promise.allSettled([...this.running.values()].map((r) => r.done));
    await this.saveCheckpoint().catch(() => undefined);
  }

  /** For tests and metrics: jobs waiting or running. */
  get backlog(): number {
    return this.pending.size + this.running.size;
  }

  private handle(event: RecordedEvent): void {
    const trigger = parseEvent<DomainWorkTrigger>(event, TRIGGER_TYPES);
    if (!trigger) return;
    for (const scheduled of domainWorkOf(trigger)) {
      const key = jobKey(scheduled.job);
      const dueAt = scheduled.notBefore === null ? 0 : Date.parse(scheduled.notBefore);
      const waiting = this.pending.get(key);
      if (waiting && !replaces(scheduled, dueAt, waiting)) continue;
      this.pending.set(key, { scheduled, dueAt, position: Math.min(waiting?.position ?? event.position, event.position) });
    }
  }

  private tick(): void {
    if (this.stopped) return;
    const now = this.deps.now().getTime();
    const limit = this.deps.concurrency ?? 3;
    while (this.running.size < limit) {
      const next = this.nextJob(now, limit);
      if (!next) break;
      const [key, job] = next;
      this.pending.delete(key);
      const done = this.execute(job).finally(() => this.running.delete(key));
      this.running.set(key, { job, done });
    }
    if (Date.now() - this.lastSaveAt >= CHECKPOINT_EVERY_MS) {
      this.lastSaveAt = Date.now();
      void this.saveCheckpoint().catch((e: unknown) => this.deps.log(`could not save the domain-data worker checkpoint: ${String(e)}`));
    }
    this.timer = setTimeout(() => this.tick(), this.deps.tickMs ?? 500);
  }

  /**
   * The due job to start next: of the domain with the fewest fetches running, the earliest due. A
   * place is always left to the other domains (one domain holds `limit - 1` at most), and a place
   * that frees goes to a domain waiting rather than to the next fetch of one already running: a site
   * whose fetches hang (a page that never finishes loading, a provider stuck on it) would otherwise
   * hold every other project's work.
   */
  private nextJob(now: number, limit: number): [string, Pending] | undefined {
    const perDomain = Math.max(1, limit - 1);
    const runningFor = new Map<string, number>();
    for (const { job } of this.running.values()) {
      const domain = job.scheduled.job.domain;
      runningFor.set(domain, (runningFor.get(domain) ?? 0) + 1);
    }
    let best: [string, Pending] | undefined;
    let bestRunning = Infinity;
    for (const [key, job] of this.pending) {
      const running = runningFor.get(job.scheduled.job.domain) ?? 0;
      if (job.dueAt > now || this.running.has(key) || running >= perDomain) continue;
      if (running < bestRunning || (running === bestRunning && job.dueAt < best![1].dueAt)) {
        best = [key, job];
        bestRunning = running;
      }
    }
    return best;
  }

  private async execute(job: Pending): Promise<void> {
    try {
      const record = await this.deps.fetchRecord(job.scheduled.job);
      if (shouldFetch(job.scheduled, record, this.deps.now())) await this.deps.run(job.scheduled);
      // A fetch that ends after the stop was likely cut off by it: it stays before the checkpoint, to
      // be asked again after the restart (where the freshness rule drops it if it was done after all).
      if (this.stopped) this.pending.set(jobKey(job.scheduled.job), job);
    } catch (error) {
      // The stores failed (the fetch itself never throws): try again later rather than lose the job.
      this.deps.log(`domain-data job ${jobKey(job.scheduled.job)} could not run: ${String(error)}`);
      const key = jobKey(job.scheduled.job);
      if (!this.pending.has(key)) this.pending.set(key, { ...job, dueAt: this.deps.now().getTime() + 60_000 });
    }
  }

  /** The checkpoint: the log is handled up to here, with nothing older still waiting or running. */
  private async saveCheckpoint(): Promise<void> {
    const open = [...this.pending.values(), ...[...this.running.values()].map((r) => r.job)].map((p) => p.position - 1);
    const position = Math.min(this.lastHandled, ...open);
    if (position <= this.saved) return;
    this.saved = position;
    await this.deps.store.appendToStream(
      FETCH_WORKER_CHECKPOINT_STREAM,
      [{ id: uuidFromName(`${FETCH_WORKER_CHECKPOINT_STREAM}:${position}`), type: 'FetchWorkerCheckpointed', data: { position } }],
      { expectedRevision: 'any' },
    );
  }
}
