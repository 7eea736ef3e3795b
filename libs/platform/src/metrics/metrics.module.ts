import { DynamicModule, Global, Module } from '@nestjs/common';
import { Metrics } from './metrics';

/**
 * The process's one `Metrics`, for injection. It is made before Nest starts (the event store's
 * appends are timed from the moment the store opens) and handed in here.
 */
@Global()
@Module({})
export class MetricsModule {
  static forRoot(metrics: Metrics): DynamicModule {
    return { module: MetricsModule, providers: [{ provide: Metrics, useValue: metrics }], exports: [Metrics] };
  }
}
