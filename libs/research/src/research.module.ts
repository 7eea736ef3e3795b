import { Module } from '@nestjs/common';
import { KeywordVolumes } from './keyword-volumes';
import { ResearchProvidersModule } from './research-providers.module';
import { VolumeRecorder } from './volume-recorder';
import { VolumesReader } from './volumes.reader';

/** Keyword research's shared parts: stored volumes, their recording and live lookups, for the routes and the roles. */
@Module({
  imports: [ResearchProvidersModule],
  providers: [VolumesReader, VolumeRecorder, KeywordVolumes],
  exports: [VolumesReader, VolumeRecorder, KeywordVolumes, ResearchProvidersModule],
})
export class ResearchModule {}
