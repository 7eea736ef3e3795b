import { Inject, Injectable, Optional } from '@nestjs/common';
import type { EventStore } from '@rank/event-store/event-store.port';
import type { ReadStore } from '@rank/read-store/read-store.port';
import type { AppConfig } from '@rank/platform/config/app-config';
import {
  checkReadiness,
  eventStoreProbe,
  projectionsProbe,
  ReadinessProbe,
  ReadinessReport,
  readStoreProbe,
} from '@rank/platform/health/readiness';
import { APP_CONFIG, EVENT_STORE, READ_STORE } from '@rank/platform/tokens';
import { ProjectionRunner } from '@rank/projector/projection-runner';
import { CheckWorkerLifecycle } from '@rank/tracking/check/check-worker.lifecycle';

/**
 * Whether this process can do its work now, for the roles it runs: the event store answers a read,
 * the read store answers `SELECT 1`, the projections (role `projections`) are within
 * READY_MAX_LAG_EVENTS / READY_MAX_LAG_SECONDS of the log, and the browser (role `scraper`) was
 * found at start or launched and is not resting (a probe never launches one). The distributed
 * projector and scraper apps ask the same parts of their own (`serveOperations`).
 */
@Injectable()
export class Readiness {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(EVENT_STORE) private readonly eventStore: EventStore,
    @Inject(READ_STORE) private readonly readStore: ReadStore,
    @Optional() private readonly projections?: ProjectionRunner,
    @Optional() private readonly checkWorker?: CheckWorkerLifecycle,
  ) {}

  check(): Promise<ReadinessReport> {
    const { roles, readyMaxLag } = this.config;
    const probes: Record<string, ReadinessProbe> = {
      eventStore: eventStoreProbe(this.eventStore),
      readStore: readStoreProbe(this.readStore),
    };
    if (this.projections && roles.has('projections')) probes.projections = projectionsProbe(this.projections, readyMaxLag);
    if (this.checkWorker && roles.has('scraper')) probes.browser = () => this.checkWorker!.browserState();
    return checkReadiness(probes);
  }
}
