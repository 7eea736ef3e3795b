import { stopController } from '@rank/providers/shared/stop-controller';
import { isCheckpoint } from '@rank/domain/checkpoints';
import { followAllForGood } from '@rank/event-store/lasting-subscriptions';
import { uuidFromName } from '@rank/domain/deterministic-uuid';
import { parseEvent } from '@rank/domain/domain-event';
import { STREAM_CATEGORIES, streamIdIn } from '@rank/domain/stream-categories';
import type { EventStore, Subscription } from '@rank/event-store/event-store.port';
import { PROJECT_CONTENT_EVENT_TYPES, ProjectContentEvent } from '@rank/projects/domain/project-content.events';
import { findProject } from '@rank/projects/domain/workspace';
import { WORKSPACE_EVENT_TYPES, WorkspaceEvent } from '@rank/projects/domain/workspace.events';
import type { ProjectContentRepository, WorkspaceRepository } from '@rank/projects/workspace.repository';
import { SUGGESTION_EVENT_TYPES, SuggestionEvent, suggestionsStreamName } from './suggestion.events';
import { JobPool } from '../job-pool';
import { type SuggestionsGenerator, SuggestionsStopped } from './suggestions-generator';
import { foldSuggestions, localesOf, runFor, SuggestionsState, SuggestionsTrigger } from './suggestions.process';

export interface SuggestionsRunnerDependencies {
  store: EventStore;
  workspaces: Pick<WorkspaceRepository, 'load'>;
  contents: Pick<ProjectContentRepository, 'load'>;
  /** Given the runner's stop signal: a run cut off by it throws `SuggestionsStopped`. */
  generator: Pick<SuggestionsGenerator, 'generate'>;
  rankingTitles(projectId: string): Promise<string[]>;
  projectIds(): Promise<string[]>;
  now(): Date;
  log(message: string): void;
  /** How often every project is looked at for its monthly refresh; default every 6 hours. */
  refreshSweepEveryMs?: number;
}

/** Projects whose suggestions run at once. */
export const SUGGESTION_RUNS_AT_ONCE = 3;

export const SUGGESTIONS_CHECKPOINT_STREAM = STREAM_CATEGORIES['suggestions-checkpoint']();
type SuggestionsCheckpointed = { type: 'SuggestionsCheckpointed'; data: { position: number } };

/** A project's suggestions stream, folded. */
export async function loadSuggestions(store: EventStore, projectId: string): Promise<SuggestionsState> {
  const events = (await store.readStream(suggestionsStreamName(projectId)))
    .map((e) => parseEvent<SuggestionEvent>(e, SUGGESTION_EVENT_TYPES))
    .filter((e) => e !== undefined);
  return foldSuggestions(events);
}

/**
 * The suggestions process manager's runner, in the projector app: follows the log for ProjectCreated
 * and KeywordsAdded (routed by type), and looks at every project for its monthly refresh at start and
 * every few hours; each trigger is decided by suggestions.process.ts when its turn comes, up to
 * SUGGESTION_RUNS_AT_ONCE projects at a time, and a run is its events on `suggestions-<projectId>`.
 * Never on a request's path. The checkpoint is saved only when nothing is queued or running, so a
 * restart loses no trigger; a replayed trigger starts nothing (run ids come from their trigger).
 */
export class SuggestionsRunner {
  private subscription: Subscription | undefined;
  /**
   * Triggers waiting and running: a few projects side by side, so that a model that hangs for one
   * account (2 tries of 60 s) does not keep every other project past the spec's two minutes of
   * polling; one project's triggers one at a time, each decided against what the one before wrote.
   */
  private readonly work = new JobPool<SuggestionsTrigger>(SUGGESTION_RUNS_AT_ONCE, (trigger) => this.handle(trigger), {
    mayStart: (trigger, running) => !running.some((r) => r.projectId === trigger.projectId),
    onSettled: (error) => {
      if (error) this.deps.log(`keyword suggestions failed: ${String(error)}`);
      // Not after a stop: a run it cut off must stay after the checkpoint, for its trigger to come again.
      if (this.work.pending === 0 && !this.stopping.signal.aborted)
        void this.saveCheckpoint(this.lastHandled).catch((e: unknown) =>
          this.deps.log(`could not save the suggestions checkpoint: ${String(e)}`),
        );
    },
  });
  private sweepTimer: NodeJS.Timeout | undefined;
  private lastHandled = 0;
  private saved = 0;
  /** Aborted by `stop`: the runs under way are cut off, left unfinished, and run again after the restart. */
  private readonly stopping = stopController();
  /** Runs made since start (for tests and the log). */
  runs = 0;

  constructor(private readonly deps: SuggestionsRunnerDependencies) {}

  async start(): Promise<void> {
    const [last] = await this.deps.store.readStream(SUGGESTIONS_CHECKPOINT_STREAM, { direction: 'backwards', maxCount: 1 });
    const checkpoint = last && parseEvent<SuggestionsCheckpointed>(last, ['SuggestionsCheckpointed']);
    this.saved = checkpoint ? Number(checkpoint.data.position) : 0;
    this.lastHandled = this.saved;
    this.subscription = followAllForGood(this.deps.store, {
      afterPosition: this.saved,
      onEvent: (event) => {
        const workspace = parseEvent<WorkspaceEvent>(event, WORKSPACE_EVENT_TYPES);
        if (workspace?.type === 'ProjectCreated')
          this.enqueue({ kind: 'event', projectId: workspace.data.projectId, eventId: event.id, event: workspace });
        const content = parseEvent<ProjectContentEvent>(event, PROJECT_CONTENT_EVENT_TYPES);
        const projectId = content?.type === 'KeywordsAdded' ? streamIdIn('project', event.streamName) : undefined;
        if (content?.type === 'KeywordsAdded' && projectId) this.enqueue({ kind: 'event', projectId, eventId: event.id, event: content });
        if (!isCheckpoint(event)) this.lastHandled = event.position;
      },
      onLost: (error, againInMs) =>
        this.deps.log(`the suggestions runner lost the log, following it again in ${againInMs} ms: ${String(error)}`),
    });
    void this.sweep();
    this.sweepTimer = setInterval(() => void this.sweep(), this.deps.refreshSweepEveryMs ?? 6 * 3600_000);
    this.sweepTimer.unref();
  }

  async stop(): Promise<void> {
    this.stopping.abort();
    await this.subscription?.stop();
    clearInterval(this.sweepTimer);
    await this.work.stop();
  }

  /** For tests: resolves once nothing is queued or running. */
  async idle(): Promise<void> {
    while (this.work.pending > 0) await new Promise((resolve) => setTimeout(resolve, 20));
  }

  /** Queues every live project's monthly refresh (decided against its stream when its turn comes). */
  async sweep(): Promise<void> {
    try {
      for (const projectId of await this.deps.projectIds()) this.enqueue({ kind: 'refresh', projectId });
    } catch (error) {
      this.deps.log(`the suggestions refresh sweep failed: ${String(error)}`);
    }
  }

  private enqueue(trigger: SuggestionsTrigger): void {
    if (!this.stopping.signal.aborted) this.work.add(trigger);
  }

  private async handle(trigger: SuggestionsTrigger): Promise<void> {
    const { store } = this.deps;
    const state = await loadSuggestions(store, trigger.projectId);
    const decision = runFor(trigger, { state, now: this.deps.now(), runIdOf: (name) => uuidFromName(`suggestions:${name}`) });
    if (!decision) return;
    const { keywords, project } = await this.projectOf(trigger.projectId);
    if (!project) return; // deleted meanwhile: nothing to suggest for
    const { projectId } = project;
    const domain = project.settings.domain;
    const { primary, locales } = localesOf(domain, keywords);
    const stream = suggestionsStreamName(projectId);
    const append = (event: SuggestionEvent, suffix: string) =>
      store.appendToStream(
        stream,
        [{ id: uuidFromName(`${stream}:${decision.runId}:${suffix}`), type: event.type, data: { ...event.data } }],
        { expectedRevision: 'any' },
      );
    await append(
      {
        type: 'SuggestionsRunStarted',
        data: {
          projectId,
          runId: decision.runId,
          reason: decision.reason,
          domain,
          locales,
          primary,
          startedAt: this.deps.now().toISOString(),
          ...(keywords.length === 0 ? { keywordLess: true as const } : {}),
        },
      },
      'started',
    );
    this.runs += 1;
    // A project deleted while its run waited on the model or autocomplete keeps no suggestions: its
    // stream was erased with it (or the start above wrote it again after), and nothing more is written.
    const deletedMeanwhile = async () => {
      if ((await this.projectOf(projectId)).project) return false;
      await store.deleteStream(stream);
      return true;
    };
    try {
      const tracked = keywords.map((k) => ({ geoCode: k.geoCode, langCode: k.langCode, keyword: k.value }));
      const titles = await this.deps.rankingTitles(projectId);
      const output = await this.deps.generator.generate({ domain, locales, tracked, titles }, this.stopping.signal);
      if (await deletedMeanwhile()) return;
      await append(
        {
          type: 'SuggestionsRunFinished',
          data: { projectId, runId: decision.runId, domain, primary, ...output, finishedAt: this.deps.now().toISOString() },
        },
        'finished',
      );
    } catch (error) {
      // Cut off by the stop: the run stays unfinished (started, never ended), which the restart runs again.
      if (error instanceof SuggestionsStopped) return;
      const reason = error instanceof Error ? error.message : String(error);
      if (await deletedMeanwhile()) return;
      this.deps.log(`keyword suggestions for project ${projectId} failed: ${reason}`);
      await append(
        {
          type: 'SuggestionsRunFailed',
          data: { projectId, runId: decision.runId, error: reason, failedAt: this.deps.now().toISOString() },
        },
        'failed',
      );
    }
  }

  /** The project's keywords and settings; no project once it is deleted. */
  private async projectOf(projectId: string) {
    const { accountId, keywords } = await this.deps.contents.load(projectId);
    const project = accountId ? findProject(await this.deps.workspaces.load(accountId), projectId) : undefined;
    return { keywords, project };
  }

  private async saveCheckpoint(position: number): Promise<void> {
    if (position <= this.saved) return;
    await this.deps.store.appendToStream(
      SUGGESTIONS_CHECKPOINT_STREAM,
      [{ id: uuidFromName(`${SUGGESTIONS_CHECKPOINT_STREAM}:${position}`), type: 'SuggestionsCheckpointed', data: { position } }],
      { expectedRevision: 'any' },
    );
    this.saved = position;
  }
}
