import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown, Optional } from '@nestjs/common';
import type { EventStore } from '@rank/event-store/event-store.port';
import type { AppConfig } from '@rank/platform/config/app-config';
import { APP_CONFIG, CLOCK, Clock, EVENT_STORE } from '@rank/platform/tokens';
import { createKeywordLlm } from '@rank/providers/llm/llm.factory';
import { ProjectContentRepository, WorkspaceRepository } from '@rank/projects/workspace.repository';
import { AUTOCOMPLETE_PROVIDER, AutocompleteProvider, KEYWORD_DATA_PROVIDER, KeywordDataProvider } from '../keyword-data-providers';
import { VolumeRecorder } from '../volume-recorder';
import { VolumesReader } from '../volumes.reader';
import { SuggestionsGenerator } from './suggestions-generator';
import { SuggestionsRunner } from './suggestions-runner';
import { SuggestionsReader } from './suggestions.reader';

/** Runs the keyword-suggestions pipeline in the process with the `projections` role. */
@Injectable()
export class SuggestionsRunnerLifecycle implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('KeywordSuggestions');
  private runner: SuggestionsRunner | undefined;

  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(AUTOCOMPLETE_PROVIDER) private readonly autocomplete: AutocompleteProvider,
    private readonly workspaces: WorkspaceRepository,
    private readonly contents: ProjectContentRepository,
    private readonly reader: SuggestionsReader,
    private readonly volumes: VolumesReader,
    private readonly recorder: VolumeRecorder,
    @Optional() @Inject(KEYWORD_DATA_PROVIDER) private readonly provider: KeywordDataProvider | null = null,
  ) {}

  /** The running pipeline (for tests). */
  get current(): SuggestionsRunner | undefined {
    return this.runner;
  }

  async onApplicationBootstrap(): Promise<void> {
    const llm = createKeywordLlm(this.config.keywordProviders.llm);
    this.logger.log(
      llm
        ? `Keyword suggestions are seeded by the model ${llm.model}`
        : 'No language model is configured (OPENAI_API_KEY or OPENAI_BASE_URL): keyword suggestions are seeded by Google Autocomplete',
    );
    const log = (message: string) => this.logger.warn(message);
    const now = () => this.clock.now();
    const generator = new SuggestionsGenerator({
      llm,
      autocomplete: this.autocomplete,
      provider: this.provider,
      recorder: this.recorder,
      stored: (keywords) => this.volumes.latest(keywords),
      now,
      log,
    });
    this.runner = new SuggestionsRunner({
      store: this.store,
      workspaces: this.workspaces,
      contents: this.contents,
      generator,
      rankingTitles: (projectId) => this.reader.rankingTitles(projectId),
      projectIds: () => this.reader.projectIds(),
      now,
      log,
    });
    await this.runner.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.runner?.stop();
  }
}
