import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { loadConfig } from '@rank/platform/config/app-config';
import { announce, createAppLogger } from '@rank/platform/logging/app-logger';
import { Metrics } from '@rank/platform/metrics/metrics';
import { loadPlans } from '@rank/platform/plans/load-plans';
import { runApp } from '@rank/platform/run-app';
import { openStores } from '@rank/platform/stores/open-stores';
import { systemClock } from '@rank/platform/tokens';
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
  announce(config, 'Projector', 'Projector started');
  return {
    close: async () => {
      await app.close();
      await stores.readStore.close();
      await stores.eventStore.close();
    },
  };
});
