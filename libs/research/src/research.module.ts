import { Module } from '@nestjs/common';
import { KeywordIdeas } from './ideas/keyword-ideas';
import { KeywordResearch } from './ideas/keyword-research';
import { KeywordVolumes } from './keyword-volumes';
import { ResearchProvidersModule } from './research-providers.module';
import { VolumeRecorder } from './volume-recorder';
import { VolumesReader } from './volumes.reader';

/** Keyword research's shared parts: stored volumes, their recording and live lookups, keyword ideas and research, for the routes and the roles. */
@Module({
  imports: [ResearchProvidersModule],
  providers: [VolumesReader, VolumeRecorder, KeywordVolumes, KeywordIdeas, KeywordResearch],
  exports: [VolumesReader, VolumeRecorder, KeywordVolumes, KeywordIdeas, KeywordResearch, ResearchProvidersModule],
})
export class ResearchModule {}
