import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import type { EventStore } from '@rank/event-store/event-store.port';
import { WorkDispatcher } from './work-dispatcher';
import type { AppConfig } from '@rank/platform/config/app-config';
import { APP_CONFIG, EVENT_STORE } from '@rank/platform/tokens';
import { Metrics } from '@rank/platform/metrics/metrics';
import { ProjectsToCheck } from '../check/projects-to-check';
import { CreditRefunds } from '../refund/credit-refunds';
import { ProjectEraser } from '@rank/projects/project-eraser';

/**
 * Runs the work dispatcher (work orders into queued checks, refunds of failed checks, the erasure of
 * deleted projects) in the process with the `projections` role: like the projections it is one
 * follower of the whole log, and running a second one by mistake only repeats idempotent writes.
 */
@Injectable()
export class WorkDispatcherLifecycle implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Dispatcher');
  private dispatcher: WorkDispatcher | undefined;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly projects: ProjectsToCheck,
    private readonly refunds: CreditRefunds,
    private readonly eraser: ProjectEraser,
    private readonly metrics: Metrics,
  ) {}

  /** The running dispatcher (for tests that wait for it). */
  get current(): WorkDispatcher | undefined {
    return this.dispatcher;
  }

  async onApplicationBootstrap(): Promise<void> {
    this.dispatcher = new WorkDispatcher({
      store: this.store,
      loadProject: (projectId) => this.projects.load(projectId),
      refund: (refund) => this.refunds.pay(refund),
      eraseProject: (projectId) => this.eraser.erase(projectId),
      log: (message) => this.logger.warn(message),
      queued: (count) => this.metrics.checksQueued.inc(count),
    });
    await this.dispatcher.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.dispatcher?.stop();
  }
}
