import { Inject, Module, OnModuleInit } from '@nestjs/common';
import type { EventStore } from '@rank/event-store/event-store.port';
import { EVENT_STORE } from '@rank/platform/tokens';
import { ProjectEraser } from '@rank/projects/project-eraser';
import { ProjectsModule } from '@rank/projects/projects.module';
import { KeywordIdeas } from './ideas/keyword-ideas';
import { KeywordResearch } from './ideas/keyword-research';
import { KeywordVolumes } from './keyword-volumes';
import { ResearchProvidersModule } from './research-providers.module';
import { suggestionsStreamName } from './suggestions/suggestion.events';
import { VolumeRecorder } from './volume-recorder';
import { VolumesReader } from './volumes.reader';

/**
 * Keyword research's shared parts: stored volumes, their recording and live lookups, keyword ideas and
 * research, for the routes and the roles. A project's keyword suggestions (`suggestions-<projectId>`)
 * are its data and are erased with it; volumes are market data, shared by every project, and stay.
 */
@Module({
  imports: [ResearchProvidersModule, ProjectsModule],
  providers: [VolumesReader, VolumeRecorder, KeywordVolumes, KeywordIdeas, KeywordResearch],
  exports: [VolumesReader, VolumeRecorder, KeywordVolumes, KeywordIdeas, KeywordResearch, ResearchProvidersModule],
})
export class ResearchModule implements OnModuleInit {
  constructor(
    private readonly eraser: ProjectEraser,
    @Inject(EVENT_STORE) private readonly store: EventStore,
  ) {}

  onModuleInit(): void {
    this.eraser.register({ eraseProject: (projectId) => this.store.deleteStream(suggestionsStreamName(projectId)) });
  }
}
