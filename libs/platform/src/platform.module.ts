import { DynamicModule, Global, Module } from '@nestjs/common';
import type { PlanCatalogue } from '@rank/accounts/domain/plans';
import type { AppConfig } from './config/app-config';
import { KeyUsageTracker } from '@rank/accounts/api-keys/key-usage.tracker';
import { HealthController } from '../../../apps/api/src/platform/health/health.controller';
import { RouteRegistry } from '../../../apps/api/src/platform/http/route-registry';
import type { Stores } from './stores/open-stores';
import { APP_CONFIG, CLOCK, Clock, EVENT_STORE, PLAN_CATALOGUE, READ_STORE } from './tokens';

export interface PlatformOptions {
  config: AppConfig;
  stores: Stores;
  plans: PlanCatalogue;
  clock: Clock;
  routes: RouteRegistry;
}

/** What every module may inject: configuration, stores, plans, the clock. Opened before Nest starts. */
@Global()
@Module({})
export class PlatformModule {
  static forRoot(options: PlatformOptions): DynamicModule {
    const providers = [
      { provide: APP_CONFIG, useValue: options.config },
      { provide: EVENT_STORE, useValue: options.stores.eventStore },
      { provide: READ_STORE, useValue: options.stores.readStore },
      { provide: PLAN_CATALOGUE, useValue: options.plans },
      { provide: CLOCK, useValue: options.clock },
      { provide: RouteRegistry, useValue: options.routes },
      KeyUsageTracker,
    ];
    return {
      module: PlatformModule,
      controllers: [HealthController],
      providers,
      exports: providers.map((p) => ('provide' in p ? p.provide : p)),
    };
  }
}
