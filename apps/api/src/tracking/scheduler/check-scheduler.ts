import { Inject, Injectable, Logger } from '@nestjs/common';
import { Cron, CronExpression } from '@nestjs/schedule';
import { findProject } from '../../../../../libs/domain/src/projects/workspace';
import { newObjectId } from '../../../../../libs/domain/src/shared/object-id';
import { latestDueSlot } from '../../../../../libs/domain/src/tracking/schedule/due-slot';
import type { ReadStore } from '../../../../../libs/read-store/src/read-store.port';
import type { AppConfig } from '../../config/app-config';
import { APP_CONFIG, CLOCK, Clock, READ_STORE } from '../../platform/tokens';
import { WorkspaceRepository } from '../../projects/workspace.repository';
import { ScheduledChecksRepository } from './scheduled-checks.repository';

/**
 * Every minute, requests the due slot of every project whose slot has not been requested yet. The
 * project list comes from the read model (any replica sees every account); each project's settings
 * are then read from its workspace stream, and the slot is requested through the project's schedule
 * stream, where exactly one replica wins a slot.
 */
@Injectable()
export class CheckScheduler {
  private readonly logger = new Logger('Scheduler');
  private running: Promise<number> | undefined;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(READ_STORE) private readonly readStore: ReadStore,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly workspaces: WorkspaceRepository,
    private readonly schedules: ScheduledChecksRepository,
  ) {}

  @Cron(CronExpression.EVERY_MINUTE)
  async onMinute(): Promise<void> {
    if (!this.config.roles.has('scheduler') || this.running) return;
    try {
      await this.requestDueSlots();
    } catch (error) {
      this.logger.error(`scheduling failed, will try again next minute: ${String(error)}`);
    }
  }

  /** Requests every due slot not yet requested; returns how many it requested. */
  requestDueSlots(): Promise<number> {
    this.running ??= this.requestAll().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  private async requestAll(): Promise<number> {
    const now = this.clock.now();
    const projects = await this.readStore.query<{ project_id: string; account_id: string }>(
      'SELECT project_id, account_id FROM projects FINAL ORDER BY account_id, project_id',
    );
    let requested = 0;
    for (const { project_id: projectId, account_id: accountId } of projects) {
      const project = findProject(await this.workspaces.load(accountId), projectId);
      if (!project) continue;
      const slot = latestDueSlot({ ...project.settings, createdAt: project.createdAt }, now);
      if (!slot) continue;
      const isNew = await this.schedules.requestSlot(
        { type: 'RequestSlot', projectId, accountId, slotKey: slot.key, batchId: newObjectId(now), dueAt: slot.dueAt.toISOString() },
        now,
      );
      if (isNew) requested++;
    }
    return requested;
  }
}
