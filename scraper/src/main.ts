import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { loadConfig } from '@rank/platform/config/app-config';
import { describeEndpoint, operationsEndpointOf } from '@rank/platform/health/operations-server';
import { checkReadiness, eventStoreProbe } from '@rank/platform/health/readiness';
import { announce, createAppLogger } from '@rank/platform/logging/app-logger';
import { Metrics } from '@rank/platform/metrics/metrics';
import { loadPlans } from '@rank/platform/plans/load-plans';
import { runApp } from '@rank/platform/run-app';
import { openEventStore } from '@rank/platform/stores/open-stores';
import { systemClock } from '@rank/platform/tokens';
import { CheckWorkerLifecycle } from '@rank/tracking/check/check-worker.lifecycle';
import { ScraperAppModule } from './scraper-app.module';

/** `node dist/scraper/src/main.js`: one scraper; run as many as Google and the proxies allow. */
void runApp('Scraper', async () => {
  const config = loadConfig();
  const metrics = new Metrics();
  const eventStore = await openEventStore(config, metrics);
  const app = await NestFactory.createApplicationContext(
    ScraperAppModule.forRoot({ config, stores: { eventStore }, plans: loadPlans(config.plansFile), clock: systemClock, metrics }),
    { logger: createAppLogger(config) },
  );
  const close = async () => {
    await app.close();
    await eventStore.close();
  };
  const checkWorker = app.get(CheckWorkerLifecycle);
  const ready = () => checkReadiness({ eventStore: eventStoreProbe(eventStore), browser: () => checkWorker.browserState() });
  // A refused OPS_PORT stops what has started first: the worker has joined its group already.
  const operations = await operationsEndpointOf(config, metrics, ready, 'Scraper').catch(async (error: unknown) => {
    await close().catch(() => undefined);
    throw error;
  });
  announce(config, 'Scraper', `Scraper started (checks at once: ${config.scraperChecksAtOnce})${describeEndpoint(operations)}`);
  return {
    close: async () => {
      await operations?.close();
      await close();
    },
    shutdownTimeoutMs: config.shutdownTimeoutMs,
  };
});
