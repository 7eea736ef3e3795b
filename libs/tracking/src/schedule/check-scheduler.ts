import { Inject, Injectable, Logger } from '@nestjs/common';
import { Cron, CronExpression } from '@nestjs/schedule';
import type { PlanCatalogue } from '@rank/accounts/domain/plans';
import { planOfAccount } from '@rank/accounts/plan-of-account';
import { findProject } from '@rank/projects/domain/workspace';
import { refreshesPerMonth } from '@rank/projects/domain/project-settings';
import { newObjectId } from '@rank/domain/object-id';
import { tokenMonthOf, tokenSlotKey } from '../domain/monthly-tokens';
import { latestDueSlot } from '../domain/schedule/due-slot';
import type { ReadStore } from '@rank/read-store/read-store.port';
import { AccountRepository } from '@rank/accounts/account.repository';
import type { AppConfig } from '@rank/platform/config/app-config';
import { APP_CONFIG, CLOCK, Clock, PLAN_CATALOGUE, READ_STORE } from '@rank/platform/tokens';
import { ProjectContentRepository, WorkspaceRepository } from '@rank/projects/workspace.repository';
import { MonthlyTokensRepository } from './monthly-tokens.repository';
import { ScheduledChecksRepository } from './scheduled-checks.repository';

/**
 * Every minute, decides the due slot of every project whose slot has not been decided yet. The
 * project list comes from the read model (any replica sees every account); each project's settings
 * are then read from its workspace stream. A new slot first draws its tokens from the account's
 * monthly ledger (the plan read live), then is requested through the project's schedule stream, or
 * recorded there as skipped when the tokens do not cover it. In both streams exactly one replica wins
 * a slot, and a replica that crashed between the two steps finds its draw again, so a slot is paid
 * once.
 */
@Injectable()
export class CheckScheduler {
  private readonly logger = new Logger('Scheduler');
  private running: Promise<number> | undefined;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(READ_STORE) private readonly readStore: ReadStore,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(PLAN_CATALOGUE) private readonly plans: PlanCatalogue,
    private readonly workspaces: WorkspaceRepository,
    private readonly contents: ProjectContentRepository,
    private readonly accounts: AccountRepository,
    private readonly tokens: MonthlyTokensRepository,
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

  /** Decides every due slot not yet decided; returns how many it requested (skipped ones not counted). */
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
      const timeZone = project.settings.updateTimezone;
      const slot = latestDueSlot({ ...project.settings, createdAt: project.createdAt, creationZone: project.creationZone }, now);
      if (!slot || (await this.schedules.isHandled(projectId, slot.dueAt, timeZone))) continue;
      const dueAt = slot.dueAt.toISOString();

      const account = await this.accounts.load(accountId);
      if (account.kind === 'open' && account.status === 'blocked') {
        const base = { type: 'SkipSlot', projectId, accountId, slotKey: slot.key, dueAt, timeZone } as const;
        if (await this.schedules.decideSlot({ ...base, reason: 'accountBlocked', needed: 0, available: 0 }, now))
          this.logger.warn(`skipped the ${slot.key} check of project ${projectId}: its account ${accountId} is blocked`);
        continue;
      }
      const month = tokenMonthOf(slot.dueAt);
      const keywordCount = (await this.contents.load(projectId)).keywords.length;
      const plan = account.kind === 'open' ? planOfAccount(this.plans, account) : undefined;
      const total = plan?.monthlySerpTokens ?? 0;
      const tokens = await this.tokens.draw(
        {
          type: 'DrawTokens',
          accountId,
          month,
          projectId,
          slotKey: tokenSlotKey(slot.key, timeZone),
          keywordCount,
          serpTop: project.settings.serpTop,
          refreshesPerMonth: refreshesPerMonth(project.settings),
          total,
        },
        now,
      );
      if (tokens.kind === 'refused') {
        const { needed, available } = tokens;
        const isNew = await this.schedules.decideSlot(
          {
            type: 'SkipSlot',
            projectId,
            accountId,
            slotKey: slot.key,
            dueAt,
            timeZone,
            reason: 'monthlyTokensExhausted',
            needed,
            available,
          },
          now,
        );
        if (isNew) {
          // A plan without tokens (Free) is not an allowance used up: the operator's fix is the plan.
          const planName = plan?.name ?? (account.kind === 'open' ? `"${account.plan}", not in the plan catalogue` : 'none');
          const why =
            total === 0
              ? `its plan (${planName}) includes no SERP-check tokens (needs ${needed})`
              : `the ${month} SERP-check tokens are used up (needs ${needed}, ${available} left)`;
          this.logger.warn(`skipped the ${slot.key} check of project ${projectId} (account ${accountId}): ${why}`);
        }
        continue;
      }
      const isNew = await this.schedules.decideSlot(
        { type: 'RequestSlot', projectId, accountId, slotKey: slot.key, batchId: newObjectId(now), dueAt, timeZone },
        now,
      );
      if (isNew) requested++;
    }
    return requested;
  }
}
