import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { loadConfig } from '@rank/platform/config/app-config';
import { describeEndpoint, operationsEndpointOf } from '@rank/platform/health/operations-server';
import { checkReadiness, eventStoreProbe, projectionsProbe, readStoreProbe } from '@rank/platform/health/readiness';
import { announce, createAppLogger } from '@rank/platform/logging/app-logger';
import { Metrics } from '@rank/platform/metrics/metrics';
import { loadPlans } from '@rank/platform/plans/load-plans';
import { runApp } from '@rank/platform/run-app';
import { openStores } from '@rank/platform/stores/open-stores';
import { systemClock } from '@rank/platform/tokens';
import { ProjectionRunner } from '@rank/projector/projection-runner';
import { ProjectorAppModule } from './projector-app.module';

/** `node dist/projections/src/main.js`: the projector (projections, work dispatcher, scheduler). */
void runApp('Projector', async () => {
  const config = loadConfig();
  const metrics = new Metrics();
  const stores = await openStores(config, metrics);
  const app = await NestFactory.createApplicationContext(
    ProjectorAppModule.forRoot({ config, stores, plans: loadPlans(config.plansFile), clock: systemClock, metrics }),
    { logger: createAppLogger(config) },
  );
  const close = async () => {
    await app.close();
    await stores.readStore.close();
    await stores.eventStore.close();
  };
  const runner = app.get(ProjectionRunner);
  const ready = () =>
    checkReadiness({
      eventStore: eventStoreProbe(stores.eventStore),
      readStore: readStoreProbe(stores.readStore),
      projections: projectionsProbe(runner, config.readyMaxLag),
    });
  // A refused OPS_PORT stops what has started first: the embedded ClickHouse left open crashed or hung the exit.
  const operations = await operationsEndpointOf(config, metrics, ready, 'Projector').catch(async (error: unknown) => {
    await close().catch(() => undefined);
    throw error;
  });
  announce(config, 'Projector', `Projector started${describeEndpoint(operations)}`);
  return {
    close: async () => {
      await operations?.close();
      await close();
    },
    shutdownTimeoutMs: config.shutdownTimeoutMs,
  };
});
