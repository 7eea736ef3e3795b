import { Injectable, UnauthorizedException } from '@nestjs/common';
import { notFound } from '@rank/domain/domain-error';
import { findProject, ProjectRecord } from './domain/workspace';
import type { AccountCaller, Caller } from '@rank/accounts/caller';
import { ProjectContentRepository, WorkspaceRepository } from './workspace.repository';

export interface AccessibleProject {
  /** The owner's account (not necessarily the caller's, for a shared project). */
  accountId: string;
  project: ProjectRecord;
}

/**
 * Who may see a project. The owner always; anyone, key or not, when it is shared; nobody else, who
 * gets 404 as if it did not exist (401 when no key was sent at all).
 */
@Injectable()
export class ProjectAccess {
  constructor(private readonly workspaces: WorkspaceRepository, private readonly contents: ProjectContentRepository) {}

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
    if (caller.kind === 'anonymous') {
      throw new UnauthorizedException({ message: 'Missing API key: send the header Authorization: Bearer <API_KEY>' });
    }
    throw notFound('Project not found');
  }

  private async findShared(projectId: string): Promise<AccessibleProject | undefined> {
    const { accountId } = await this.contents.load(projectId);
    if (accountId === null) return undefined;
    const project = findProject(await this.workspaces.load(accountId), projectId);
    return project?.settings.shared ? { accountId, project } : undefined;
  }
}
