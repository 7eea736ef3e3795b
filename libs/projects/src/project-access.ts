import { Injectable, UnauthorizedException } from '@nestjs/common';
import { notFound } from '@rank/domain/domain-error';
import { findProject, ProjectRecord } from './domain/workspace';
import { AccountRepository } from '@rank/accounts/account.repository';
import type { AccountCaller, Caller } from '@rank/accounts/caller';
import { ProjectContentRepository, WorkspaceRepository } from './workspace.repository';

export const MISSING_KEY = 'Missing API key: send the header Authorization: Bearer <API_KEY>';

export interface AccessibleProject {
  /** The owner's account (not necessarily the caller's, for a shared project). */
  accountId: string;
  project: ProjectRecord;
}

/**
 * Who may see a project. The owner always; anyone, key or not, when it is shared and its owner is not
 * blocked; nobody else, who gets 404 as if it did not exist (401 when no key was sent at all).
 */
@Injectable()
export class ProjectAccess {
  constructor(
    private readonly workspaces: WorkspaceRepository,
    private readonly contents: ProjectContentRepository,
    private readonly accounts: AccountRepository,
  ) {}

  /** For writes and private reads: the caller's own project, else 404. */
  async owned(caller: AccountCaller, projectId: string): Promise<AccessibleProject> {
    const project = findProject(await this.workspaces.load(caller.accountId), projectId);
    if (!project) throw notFound('Project not found');
    return { accountId: caller.accountId, project };
  }

  /** For the reads the spec makes public when the project is shared. */
  async readable(caller: Caller, projectId: string): Promise<AccessibleProject> {
    if (caller.kind === 'account') {
      const own = findProject(await this.workspaces.load(caller.accountId), projectId);
      if (own) return { accountId: caller.accountId, project: own };
    }
    const shared = await this.findShared(projectId);
    if (shared) return shared;
    if (caller.kind === 'anonymous') throw new UnauthorizedException({ message: MISSING_KEY });
    throw notFound('Project not found');
  }

  /** A shared project, unless its owner is blocked: a blocked account's data is not served to anyone. */
  private async findShared(projectId: string): Promise<AccessibleProject | undefined> {
    const { accountId } = await this.contents.load(projectId);
    if (accountId === null) return undefined;
    const project = findProject(await this.workspaces.load(accountId), projectId);
    if (!project?.settings.shared) return undefined;
    const owner = await this.accounts.load(accountId);
    return owner.kind === 'open' && owner.status !== 'blocked' ? { accountId, project } : undefined;
  }
}
