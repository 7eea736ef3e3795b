import { stopController } from '@rank/providers/shared/stop-controller';
import { isCheckpoint } from '@rank/domain/checkpoints';
import { pause } from '@rank/providers/shared/retry';
import { followAllForGood } from '@rank/event-store/lasting-subscriptions';
import { uuidFromName } from '@rank/domain/deterministic-uuid';
import { parseEvent } from '@rank/domain/domain-event';
import { STREAM_CATEGORIES } from '@rank/domain/stream-categories';
import type { EventStore, Subscription } from '@rank/event-store/event-store.port';
import { PROJECT_CONTENT_EVENT_TYPES, ProjectContentEvent } from '@rank/projects/domain/project-content.events';
import { marketKeywordKey, VOLUME_EVENT_TYPES, VolumeEvent } from './domain/volume.events';
import type { KeywordDataProvider } from './keyword-data-providers';
import { JobPool } from './job-pool';
import { metricsOfAsked, VolumeRecorder } from './volume-recorder';
import {
  isFresh,
  keywordsWanted,
  retryAfterFailure,
  VOLUME_CALLS_PER_MINUTE,
  VOLUME_FETCHES_AT_ONCE,
  VOLUME_RETRY_DELAYS_MS,
  VOLUMES_FRESH_FOR_MS,
  VolumeFetch,
  volumeFetchesFor,
  waitBeforeCall,
} from './volumes.process';
import type { MarketKeyword, StoredVolume } from './volumes.reader';

export interface VolumeFetcherDependencies {
  store: EventStore;
  provider: KeywordDataProvider;
  recorder: Pick<VolumeRecorder, 'fetched' | 'failed'>;
  /** Stored volumes of the keywords asked for (ClickHouse). */
  stored(keywords: readonly MarketKeyword[]): Promise<StoredVolume[]>;
  /** Tracked keywords with no volumes or volumes fetched before the date. */
  staleTracked(fetchedBefore: Date, limit: number): Promise<MarketKeyword[]>;
  now(): Date;
  log(message: string): void;
  retryDelaysMs?: readonly number[];
  /** How often the refresh sweep looks for stale markets; default hourly. */
  sweepEveryMs?: number;
  /** Background provider calls a minute at most (VOLUME_CALLS_PER_MINUTE); 0 does not pace. */
  callsPerMinute?: number;
}

export const VOLUME_FETCHER_CHECKPOINT_STREAM = STREAM_CATEGORIES['volume-fetcher-checkpoint']();
type VolumeFetcherCheckpointed = { type: 'VolumeFetcherCheckpointed'; data: { position: number } };
/** Keywords one sweep takes on; the next sweep takes the rest. */
const SWEEP_LIMIT = 100_000;

/**
 * The volumes process manager's runner, in the projector app: follows the log for KeywordsAdded
 * (routed by type) and fetches the volumes of the texts that lack fresh ones, batched per market
 * (volumes.process.ts); a sweep at start and every hour re-fetches tracked keywords whose volumes are
 * a month old (and anything missed while stopped). Failed batches are retried with backoff, then
 * recorded as failed. It never runs on a request's path. Its checkpoint is saved only when nothing is
 * pending, so a restart loses no work; a replay only re-reads, since fresh texts are not fetched again.
 */
export class VolumeFetcher {
  private subscription: Subscription | undefined;
  /** Provider calls waiting and in flight, a few at once (see VOLUME_FETCHES_AT_ONCE). */
  private readonly fetches = new JobPool<{ fetch: VolumeFetch; attempt: number }>(VOLUME_FETCHES_AT_ONCE, (job) => this.fetch(job), {
    onSettled: (error) => {
      if (error) this.deps.log(`volume fetching failed: ${String(error)}`);
      this.forgetRecorded();
      if (this.isIdle()) this.saveNow();
    },
  });
  private wanted: MarketKeyword[] = [];
  /** Fetches seen in the log, until the projection has them (marketKeywordKey → fetchedAt). */
  private readonly recentlyFetched = new Map<string, string>();
  private draining: Promise<void> | undefined;
  /** Failed calls waiting to be tried again, by their timer. */
  private readonly retries = new Map<NodeJS.Timeout, { fetch: VolumeFetch; attempt: number }>();
  /** A call stop() cut short, before it was made or in flight: the checkpoint must not pass it. */
  private cutShort = false;
  private sweepTimer: NodeJS.Timeout | undefined;
  private saveTimer: NodeJS.Timeout | undefined;
  /** Aborted by stop(): ends the pacing waits at once and cuts the provider calls in flight short. */
  private readonly stopping = stopController();
  private lastHandled = 0;
  private saved = 0;
  /** Start times of the provider calls (ms on the process clock), for pacing. */
  private callTimes: number[] = [];
  /** Provider calls made (for the bench and the log). */
  calls = 0;

  constructor(private readonly deps: VolumeFetcherDependencies) {}

  async start(): Promise<void> {
    const [last] = await this.deps.store.readStream(VOLUME_FETCHER_CHECKPOINT_STREAM, { direction: 'backwards', maxCount: 1 });
    const checkpoint = last && parseEvent<VolumeFetcherCheckpointed>(last, ['VolumeFetcherCheckpointed']);
    this.saved = checkpoint ? Number(checkpoint.data.position) : 0;
    this.lastHandled = this.saved;
    this.subscription = followAllForGood(this.deps.store, {
      afterPosition: this.saved,
      onEvent: (event) => {
        const content = parseEvent<ProjectContentEvent>(event, PROJECT_CONTENT_EVENT_TYPES);
        if (content) this.want(keywordsWanted(content));
        const volumes = parseEvent<VolumeEvent>(event, VOLUME_EVENT_TYPES);
        if (volumes?.type === 'KeywordVolumesFetched') {
          for (const k of volumes.data.keywords)
            this.recentlyFetched.set(marketKeywordKey(volumes.data, k.keyword), volumes.data.fetchedAt);
        }
        // Checkpoints (its own, the other processes') move nothing worth saving: saving for them would save forever.
        if (isCheckpoint(event)) return;
        this.lastHandled = event.position;
        if (this.isIdle()) this.saveSoon();
      },
      onLost: (error, againInMs) =>
        this.deps.log(`the volume fetcher lost the log, following it again in ${againInMs} ms: ${String(error)}`),
    });
    void this.sweep();
    const every = this.deps.sweepEveryMs ?? 3600_000;
    this.sweepTimer = setInterval(() => void this.sweep(), every);
    this.sweepTimer.unref();
  }

  async stop(): Promise<void> {
    // A call in flight is cut off rather than waited for (its tries may take a minute, past the
    // shutdown's time): it was not done, so the checkpoint stays before it and a restart asks again.
    this.stopping.abort();
    await this.subscription?.stop();
    clearInterval(this.sweepTimer);
    clearTimeout(this.saveTimer);
    // Retries waiting are work not done: the checkpoint stays where it is, so a restart redoes them.
    const retriesWaiting = this.retries.size > 0;
    for (const timer of this.retries.keys()) clearTimeout(timer);
    this.retries.clear();
    await this.draining;
    await this.fetches.stop();
    if (!retriesWaiting && !this.cutShort && this.isIdle()) await this.saveCheckpoint(this.lastHandled);
  }

  private get stopped(): boolean {
    return this.stopping.signal.aborted;
  }

  private isIdle(): boolean {
    return !this.draining && this.fetches.pending === 0 && this.wanted.length === 0 && this.retries.size === 0;
  }

  /** A log of other events moves the checkpoint too (debounced), so a restart does not read it all again. */
  private saveSoon(): void {
    this.saveTimer ??= setTimeout(() => {
      this.saveTimer = undefined;
      if (this.isIdle()) this.saveNow();
    }, 1_000);
  }

  /** Saves the position read so far; only when idle, when every trigger up to it has been handled. */
  private saveNow(): void {
    if (this.stopped) return; // stop() decides the last save
    void this.saveCheckpoint(this.lastHandled).catch((e: unknown) =>
      this.deps.log(`could not save the volume fetcher checkpoint: ${String(e)}`),
    );
  }

  /** For tests and the bench: resolves once nothing is wanted, queued or being fetched (retries waiting count as pending). */
  async idle(): Promise<void> {
    while (!this.isIdle()) await (this.draining ?? new Promise((resolve) => setTimeout(resolve, 20)));
  }

  /** Re-fetches tracked keywords whose volumes are missing or a month old. */
  async sweep(): Promise<void> {
    try {
      const stale = await this.deps.staleTracked(new Date(this.deps.now().getTime() - VOLUMES_FRESH_FOR_MS), SWEEP_LIMIT);
      this.want(stale);
    } catch (error) {
      this.deps.log(`the volume refresh sweep failed: ${String(error)}`);
    }
  }

  private want(keywords: readonly MarketKeyword[]): void {
    if (keywords.length === 0 || this.stopped) return;
    this.wanted.push(...keywords);
    this.drainSoon();
  }

  private drainSoon(): void {
    // Events of one append arrive together: one drain takes all of them, so batches fill up.
    this.draining ??= new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => this.drain())
      .catch((error: unknown) => this.deps.log(`volume fetching failed: ${String(error)}`))
      .finally(() => {
        this.draining = undefined;
        if (this.wanted.length > 0) this.drainSoon();
        else if (this.isIdle()) this.saveNow();
      });
  }

  /** Turns the wanted keywords into provider calls, leaving out what is fresh, fetched or on its way. */
  private async drain(): Promise<void> {
    if (this.wanted.length === 0) return;
    const wanted = this.wanted;
    this.wanted = [];
    const stored = await this.deps.stored(wanted);
    const fetchedAt = new Map(this.recentlyFetched);
    for (const v of stored) if (!fetchedAt.has(marketKeywordKey(v, v.keyword))) fetchedAt.set(marketKeywordKey(v, v.keyword), v.fetchedAt);
    // Anything waiting, in flight or waiting to be tried again is as good as fetched.
    for (const { fetch } of [...this.fetches.jobs, ...this.retries.values()])
      for (const k of fetch.keywords) fetchedAt.set(marketKeywordKey(fetch, k), this.deps.now().toISOString());
    this.fetches.add(...volumeFetchesFor(wanted, { fetchedAt, now: this.deps.now() }).map((fetch) => ({ fetch, attempt: 1 })));
  }

  private async fetch({ fetch, attempt }: { fetch: VolumeFetch; attempt: number }): Promise<void> {
    const { provider } = this.deps;
    const market = { geoCode: fetch.geoCode, langCode: fetch.langCode };
    const now = Date.now();
    const wait = waitBeforeCall(this.callTimes, now, this.deps.callsPerMinute ?? VOLUME_CALLS_PER_MINUTE);
    // The turn is taken before the wait, so that calls running side by side do not take the same one.
    this.callTimes = [...this.callTimes.filter((t) => t > now - 60_000), now + wait].sort((a, b) => a - b);
    if (wait > 0) await pause(wait, this.stopping.signal);
    if (this.stopped) {
      this.cutShort = true;
      return;
    }
    try {
      this.calls += 1;
      const fetchedAt = this.deps.now();
      const answered = await provider.searchVolumes(market, fetch.keywords, this.stopping.signal);
      await this.deps.recorder.fetched(market, provider.source, fetchedAt, metricsOfAsked(fetch.keywords, answered));
      for (const k of fetch.keywords) this.recentlyFetched.set(marketKeywordKey(market, k), fetchedAt.toISOString());
    } catch (error) {
      if (this.stopped) {
        this.cutShort = true;
        return;
      }
      const reason = error instanceof Error ? error.message : String(error);
      const delay = retryAfterFailure(attempt, this.deps.retryDelaysMs ?? VOLUME_RETRY_DELAYS_MS);
      this.deps.log(
        `volumes of ${fetch.keywords.length} keywords (${market.geoCode}/${market.langCode}) failed, attempt ${attempt}: ${reason}${delay === null ? '; giving up until the next refresh' : `; retrying in ${delay} ms`}`,
      );
      if (delay === null) {
        await this.deps.recorder.failed(market, provider.source, this.deps.now(), fetch.keywords, reason, attempt);
        return;
      }
      const retry = { fetch, attempt: attempt + 1 };
      const timer = setTimeout(() => {
        this.retries.delete(timer);
        if (!this.stopped) this.fetches.add(retry);
      }, delay);
      this.retries.set(timer, retry);
    }
  }

  /** Once the projection has had time to store them (a day), fetches seen in the log need not be held in memory. */
  private forgetRecorded(): void {
    const now = this.deps.now();
    for (const [key, at] of this.recentlyFetched)
      if (now.getTime() - Date.parse(at) > 24 * 3600_000 || !isFresh(at, now)) this.recentlyFetched.delete(key);
  }

  private async saveCheckpoint(position: number): Promise<void> {
    if (position <= this.saved) return;
    await this.deps.store.appendToStream(
      VOLUME_FETCHER_CHECKPOINT_STREAM,
      [{ id: uuidFromName(`${VOLUME_FETCHER_CHECKPOINT_STREAM}:${position}`), type: 'VolumeFetcherCheckpointed', data: { position } }],
      { expectedRevision: 'any' },
    );
    this.saved = position;
  }
}
