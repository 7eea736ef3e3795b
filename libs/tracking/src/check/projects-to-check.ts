import { Injectable } from '@nestjs/common';
import { findProject } from '@rank/projects/domain/workspace';
import { ProjectContentRepository, WorkspaceRepository } from '@rank/projects/workspace.repository';
import type { ProjectToCheck } from './check.process';

/** What the dispatcher and the scrapers read of a project (from the projects context's streams). */
@Injectable()
export class ProjectsToCheck {
  constructor(
    private readonly workspaces: WorkspaceRepository,
    private readonly contents: ProjectContentRepository,
  ) {}

  /** The project as it is now (its keywords and its owner's workspace); null once deleted. */
  async load(projectId: string): Promise<ProjectToCheck | null> {
    const content = await this.contents.load(projectId);
    if (content.accountId === null) return null;
    const project = findProject(await this.workspaces.load(content.accountId), projectId);
    if (!project) return null;
    return {
      accountId: content.accountId,
      ownDomains: [project.settings.domain, ...project.settings.aliases],
      serpTop: project.settings.serpTop,
      keywords: content.keywords,
      timeZone: project.settings.updateTimezone,
    };
  }

  /**
   * Whether a project loaded before is still there: its owner's workspace says so first when it is
   * deleted (its other streams are erased after), so that stream alone answers.
   */
  async stillExists(accountId: string, projectId: string): Promise<boolean> {
    return findProject(await this.workspaces.load(accountId), projectId) !== undefined;
  }
}
