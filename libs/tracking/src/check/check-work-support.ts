import { Inject, Injectable } from '@nestjs/common';
import { findProject } from '@rank/projects/domain/workspace';
import type { CreditRefund } from './check-work';
import type { ProjectToCheck } from './check-worker';
import { AccountRepository } from '@rank/accounts/account.repository';
import { CLOCK, Clock } from '@rank/platform/tokens';
import { ProjectContentRepository, WorkspaceRepository } from '@rank/projects/workspace.repository';

/** What the dispatcher and the scrapers read of a project, and how they give credits back. */
@Injectable()
export class CheckWorkSupport {
  constructor(
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly workspaces: WorkspaceRepository,
    private readonly contents: ProjectContentRepository,
    private readonly accounts: AccountRepository,
  ) {}

  /** The project as it is now; null once deleted. */
  async loadProject(projectId: string): Promise<ProjectToCheck | null> {
    const content = await this.contents.load(projectId);
    if (content.accountId === null) return null;
    const project = findProject(await this.workspaces.load(content.accountId), projectId);
    if (!project) return null;
    return {
      accountId: content.accountId,
      ownDomains: [project.settings.domain, ...project.settings.aliases],
      serpTop: project.settings.serpTop,
      keywords: content.keywords,
    };
  }

  /** Idempotent per check: the account decider keys the refund by check id. */
  async refund({ accountId, batchId, checkId, credits }: CreditRefund): Promise<void> {
    await this.accounts.handle(accountId, { type: 'RefundCheck', batchId, checkId, credits }, this.clock.now(), { idempotencyKey: `refund:${checkId}` });
  }
}
