import { Module } from '@nestjs/common';
import { VOLUME_PROVIDER } from './volume-provider';

/**
 * The configured keyword-data providers, made once per process from the configuration.
 * TODO(10a): build VOLUME_PROVIDER from libs/providers' keyword-data factory once it lands.
 */
@Module({
  providers: [{ provide: VOLUME_PROVIDER, useValue: null }],
  exports: [VOLUME_PROVIDER],
})
export class ResearchProvidersModule {}
