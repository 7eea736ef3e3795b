import { Injectable } from '@nestjs/common';
import { ProjectContentRepository } from './workspace.repository';

/** Something that keeps data of a project in streams of its own and must erase it with the project. */
export interface ProjectDataOwner {
  eraseProject(projectId: string): Promise<void>;
}

/**
 * Deleting a project deletes all its data: its own stream here, and the streams other contexts keep
 * for it (check results, for one), which register themselves. Read-model rows are erased by the
 * projections when they see ProjectDeleted, so a replay of the log cannot bring them back.
 */
@Injectable()
export class ProjectEraser {
  private readonly owners: ProjectDataOwner[] = [];

  constructor(private readonly contents: ProjectContentRepository) {}

  register(owner: ProjectDataOwner): void {
    this.owners.push(owner);
  }

  async erase(projectId: string): Promise<void> {
    for (const owner of this.owners) await owner.eraseProject(projectId);
    await this.contents.delete(projectId);
  }
}
