import { DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER, APP_GUARD } from '@nestjs/core';
import { AccountsModule } from '@rank/accounts/accounts.module';
import { ApiKeysModule } from './accounts/api-keys/api-keys.module';
import { ProjectsModule } from '@rank/projects/projects.module';
import { TrackingModule } from '@rank/tracking/tracking.module';
import { ExportsModule } from './tracking/exports/exports.module';
import { TrackingReadsModule } from './tracking/reads/tracking-reads.module';
import { ProjectionsModule } from '@rank/projector/projector.module';
import { ApiKeyGuard } from './platform/auth/api-key.guard';
import { AllExceptionsFilter } from './platform/http/exception.filter';
import { PlatformModule, PlatformOptions } from '@rank/platform/platform.module';

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
