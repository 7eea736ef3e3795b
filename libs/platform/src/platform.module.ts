import { DynamicModule, Global, Module } from '@nestjs/common';
import type { PlanCatalogue } from '@rank/accounts/domain/plans';
import type { AppConfig } from './config/app-config';
import type { Stores } from './stores/open-stores';
import { Metrics } from './metrics/metrics';
import { MetricsModule } from './metrics/metrics.module';
import { StateCache } from '@rank/event-store/state-cache';
import { APP_CONFIG, CLOCK, Clock, EVENT_STORE, PLAN_CATALOGUE, READ_STORE, STATE_CACHE } from './tokens';

export interface PlatformOptions {
  config: AppConfig;
  /** The scraper opens no read store: nothing it runs may inject READ_STORE. */
  stores: Pick<Stores, 'eventStore'> & Partial<Pick<Stores, 'readStore'>>;
  plans: PlanCatalogue;
  clock: Clock;
  /** The process's metrics (made before the stores, which they time); a fresh registry when not given. */
  metrics?: Metrics;
}

/** What every module may inject: configuration, stores, plans, the clock, the metrics. Opened before Nest starts. */
@Global()
@Module({})
export class PlatformModule {
  static forRoot(options: PlatformOptions): DynamicModule {
    const providers = [
      { provide: APP_CONFIG, useValue: options.config },
      { provide: EVENT_STORE, useValue: options.stores.eventStore },
      ...(options.stores.readStore ? [{ provide: READ_STORE, useValue: options.stores.readStore }] : []),
      { provide: PLAN_CATALOGUE, useValue: options.plans },
      { provide: CLOCK, useValue: options.clock },
      { provide: STATE_CACHE, useValue: new StateCache(options.config.aggregateCacheMb * 1024 * 1024) },
    ];
    return {
      module: PlatformModule,
      imports: [MetricsModule.forRoot(options.metrics ?? new Metrics())],
      providers,
      exports: providers.map((p) => ('provide' in p ? p.provide : p)),
    };
  }
}
