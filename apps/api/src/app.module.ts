import { DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER, APP_GUARD } from '@nestjs/core';
import { AccountsModule } from './accounts/accounts.module';
import { ApiKeysModule } from './api-keys/api-keys.module';
import { ProjectsModule } from './projects/projects.module';
import { TrackingModule } from './tracking/tracking.module';
import { ExportsModule } from './tracking/exports/exports.module';
import { TrackingReadsModule } from './tracking/reads/tracking-reads.module';
import { ProjectionsModule } from '../../../projections/src/projections.module';
import { ApiKeyGuard } from './platform/auth/api-key.guard';
import { AllExceptionsFilter } from './platform/http/exception.filter';
import { PlatformModule, PlatformOptions } from './platform/platform.module';

/** The whole API: one module per bounded context, wired together here and nowhere else. */
@Module({})
export class AppModule {
  static forRoot(options: PlatformOptions): DynamicModule {
    return {
      module: AppModule,
      imports: [PlatformModule.forRoot(options), AccountsModule, ApiKeysModule, ProjectsModule, ProjectionsModule, TrackingModule, ExportsModule, TrackingReadsModule],
      providers: [
        { provide: APP_GUARD, useClass: ApiKeyGuard },
        { provide: APP_FILTER, useClass: AllExceptionsFilter },
      ],
    };
  }
}
